"""Tower Up: board graph, rules engine, objective language, Z3 objective model, bot, simulation."""
