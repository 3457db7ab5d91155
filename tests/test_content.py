"""Where the data folders are found: the checkout's from source, else the installed copy."""

from __future__ import annotations

from pathlib import Path

from tower_print.content import content_root, data_folder, templates_root


def test_a_checkout_uses_its_own_folders() -> None:
    root = Path(__file__).resolve().parent.parent
    assert content_root() == root / "content"
    assert templates_root() == root / "templates"


def test_an_installed_package_uses_the_copies_inside_it(tmp_path: Path) -> None:
    """As pip lays it out (site-packages/tower_print/_content): no pyproject.toml above the
    package, even if some other folder named content happens to sit there. Regression: the
    installed path came back as "MultiplexedPath('...')" and `pip install .` could not start."""
    package = tmp_path / "site-packages" / "tower_print"
    (package / "_content").mkdir(parents=True)
    (tmp_path / "site-packages" / "content").mkdir()
    module = package / "content.py"
    module.write_text("")
    assert data_folder("content", "_content", module) == package / "_content"
    assert data_folder("templates", "_templates", module) == package / "_templates"
