"""Physics cross-check for towers: settle them in MuJoCo and see how far any brick moves.

Test helper only; verdicts never depend on it. Each brick is a free rigid box of wood on a plane
table. Boxes are shrunk by a hair on every horizontal side so bricks placed side by side start
apart instead of interpenetrating; vertical faces are exact, so stacked bricks start just
touching and are at rest from the first step. Single-threaded MuJoCo stepping is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

import mujoco
import numpy as np

from tower_print.brix.geometry import PlacedBrick

DROP_LIMIT_MM = 5.0
"""A tower stands when no brick centre moves more than this while settling."""

DENSITY = 600.0  # kg/m^3, a light wood
FRICTION = 0.55
TIMESTEP = 0.0005  # s
GAP_MM = 0.05  # horizontal shrink of each box, per side
SOLREF = "0.002 1"  # contact time constant (s) and damping ratio: stiff, critically damped
SOLIMP = "0.99 0.999 0.0005 0.5 2"  # near-hard impedance: loaded contacts sink microns, not mm
# MuJoCo's default soft contact (solref 0.02, solimp 0.9 0.95 0.001) lets a stack sink by
# millimetres and tips loaded bricks whose weight passes near an edge; these settings keep
# exactly stacked towers still to within a hundredth of a millimetre. No noslip pass is needed.


def tower_xml(bricks: Sequence[PlacedBrick], unit_mm: float = 12.5) -> str:
    unit = unit_mm / 1000.0
    gap = GAP_MM / 1000.0
    bodies = []
    for k, b in enumerate(bricks):
        cx, cy, cz = ((p + d / 2) * unit for p, d in ((b.x, b.dx), (b.y, b.dy), (b.z, b.dz)))
        hx, hy, hz = b.dx * unit / 2 - gap, b.dy * unit / 2 - gap, b.dz * unit / 2
        bodies.append(
            f'<body name="b{k}" pos="{cx:.9g} {cy:.9g} {cz:.9g}"><freejoint/>'
            f'<geom type="box" size="{hx:.9g} {hy:.9g} {hz:.9g}"/></body>'
        )
    return f"""
<mujoco model="tower">
  <option timestep="{TIMESTEP}" integrator="implicitfast" cone="elliptic" impratio="10"/>
  <default>
    <geom density="{DENSITY}" friction="{FRICTION} 0.005 0.0001" margin="0"
          solref="{SOLREF}" solimp="{SOLIMP}" condim="4"/>
  </default>
  <worldbody>
    <geom name="table" type="plane" size="1 1 0.01"/>
    {"".join(bodies)}
  </worldbody>
</mujoco>
"""


def settle_trace(
    bricks: Sequence[PlacedBrick], unit_mm: float = 12.5, seconds: float = 2.0
) -> np.ndarray:
    """Displacement in mm of every brick centre from its start, at the end of the run."""
    model = mujoco.MjModel.from_xml_string(tower_xml(bricks, unit_mm))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    start = data.xpos[1:].copy()
    for _ in range(int(round(seconds / model.opt.timestep))):
        mujoco.mj_step(model, data)
    return np.linalg.norm(data.xpos[1:] - start, axis=1) * 1000.0


def settle(bricks: Sequence[PlacedBrick], unit_mm: float = 12.5, seconds: float = 2.0) -> float:
    """Largest displacement in mm of any brick centre after `seconds` of simulated time."""
    if not bricks:
        return 0.0
    return float(settle_trace(bricks, unit_mm, seconds).max())


def assert_stands_in_simulation(
    bricks: Sequence[PlacedBrick], unit_mm: float = 12.5, seconds: float = 2.0
) -> None:
    moved = settle(bricks, unit_mm, seconds)
    assert moved < DROP_LIMIT_MM, f"tower moves {moved:.2f} mm when settled: {list(bricks)}"
