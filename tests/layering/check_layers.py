#!/usr/bin/env python3
"""Checks that #include lines point the way ../shared/DESIGN.md's layers allow: app -> panels ->
(engine, viewer); viewer never includes engine (nor Qt); engine includes nothing above it (no Qt,
Vulkan or ImGui); inside engine, each part only what lies below it. Prints every include that
breaks a rule as FILE:LINE and exits 1; "layers ok: N files" otherwise.

Inside app, by concern (docs/architecture.md): app/document (the StudioDocument and what it holds)
is the ground floor and includes no other part of app; app/workers includes only itself; the scene
bridge (app/viewport/scene_bridge, a Qt-free library) includes no other part of app and no Qt; the
window itself (main_window, the window factory, the icon, main) is the top floor, included by no
part; and no two parts include each other, directly or round a loop.

"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')

# Top-level folders: what each may include of the project's other layers.
TOP = {
    "engine": {"engine"},
    "viewer": {"viewer"},
    "panels": {"panels", "engine", "viewer"},
    "app": {"app", "panels", "engine", "viewer"},
}
# Outside libraries a layer may not use: engine is the planning library (no Qt, no graphics);
# the viewer has no Qt.
FORBIDDEN_EXTERNAL = {
    "engine": re.compile(r"^(Q[A-Za-z]+|Qt[A-Za-z]*/|vulkan/|imgui)"),
    "viewer": re.compile(r"^(Q[A-Za-z]+|Qt[A-Za-z]*/)"),
}
# engine/<part>: the parts below it it may include (itself always).
ENGINE = {
    "core": set(),
    "model": {"core"},
    "kinematics": {"core", "model"},
    "geometry": {"core", "model"},
    "scene": {"core", "model", "geometry"},
    "collision": {"core", "model", "kinematics", "geometry", "scene"},
    "trajectory": {"core", "model"},
    "planning": {"core", "model", "kinematics", "geometry", "collision", "scene", "trajectory"},
    "servo": {"core", "model", "kinematics", "geometry", "collision", "scene"},
    "task": {"core", "model", "kinematics", "geometry", "collision", "scene", "planning", "trajectory"},
}


# app/<part>: parts that may include only themselves.
APP_SELF_ONLY = {"document", "workers", "viewport/scene_bridge"}
# The top floor: files at app/'s root that no part may include (the command line is a plain type).
APP_TOP = {"main_window.hpp", "studio_window_factory.hpp", "app_icon.hpp"}


def app_part(relative: pathlib.PurePath):
    """The part of app a file belongs to ("" for app/'s root)."""
    parts = relative.parts
    if len(parts) == 1:
        return ""
    if parts[0] == "viewport" and len(parts) > 2 and parts[1] == "scene_bridge":
        return "viewport/scene_bridge"
    return parts[0]


def app_problems(root: pathlib.Path):
    """Rules inside app/; yields (message) and checks the parts' include graph for loops."""
    graph = {}
    for path in sorted((root / "app").rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h") or not path.is_file():
            continue
        part = app_part(path.relative_to(root / "app"))
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1)
            where = f"{path.relative_to(root)}:{number}"
            if part == "viewport/scene_bridge" and re.match(r"^(Q[A-Za-z]+|Qt[A-Za-z]*/|panels/)", target):
                yield f"{where}: app/viewport/scene_bridge includes {target} (the bridge is Qt-free)"
            if not target.startswith("app/"):
                continue
            target_part = app_part(pathlib.PurePath(target).relative_to("app"))
            if part and not target_part and pathlib.PurePath(target).name in APP_TOP:
                yield f"{where}: app/{part} includes {target}, the window on the top floor"
            if part in APP_SELF_ONLY and target_part != part:
                yield f"{where}: app/{part} includes {target} (app/{part} includes no other part of app)"
            if part and target_part and target_part != part:
                graph.setdefault(part, {}).setdefault(target_part, where)
    # A loop between parts: each part reached again from itself.
    reported = set()
    for start in sorted(graph):
        stack = [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for nxt in sorted(graph.get(node, {})):
                if nxt == start:
                    loop = frozenset(trail)
                    if loop not in reported:
                        reported.add(loop)
                        steps = " -> ".join(f"app/{p}" for p in trail + [start])
                        yield f"{graph[node][nxt]}: parts of app include each other: {steps}"
                elif nxt not in trail and len(trail) < 8:
                    stack.append((nxt, trail + [nxt]))


def problems(root: pathlib.Path):
    files = 0
    for layer in TOP:
        for path in sorted((root / layer).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h") or not path.is_file():
                continue
            files += 1
            part = path.relative_to(root / layer).parts[0] if layer == "engine" else None
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                target = match.group(1)
                where = f"{path.relative_to(root)}:{number}"
                head = target.split("/")[0]
                if head in TOP and head not in TOP[layer]:
                    yield files, f"{where}: {layer}/ includes {target} ({layer} may include {sorted(TOP[layer])})"
                forbidden = FORBIDDEN_EXTERNAL.get(layer)
                if forbidden and forbidden.match(target):
                    yield files, f"{where}: {layer}/ includes {target}, which its layer does not use"
                if layer == "engine" and head == "engine" and part in ENGINE:
                    target_part = target.split("/")[1]
                    if target_part != part and target_part not in ENGINE[part]:
                        yield files, f"{where}: engine/{part} includes {target} (engine/{part} builds on {sorted(ENGINE[part])})"
    if (root / "app").is_dir():
        for problem in app_problems(root):
            yield files, problem
    yield files, None


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[2])
    found, files = [], 0
    for files, problem in problems(root):
        if problem:
            found.append(problem)
    for problem in found:
        print(problem)
    if found or files == 0:
        print(f"layers broken: {len(found)} includes" if found else "no source files found")
        return 1
    print(f"layers ok: {files} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
