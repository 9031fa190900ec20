#!/usr/bin/env python3
"""Checks that #include lines point the way ../shared/DESIGN.md's layers allow: app -> panels ->
(engine, viewer); viewer never includes engine (nor Qt); engine includes nothing above it (no Qt,
Vulkan or ImGui); inside engine, each part only what lies below it. Prints every include that
breaks a rule as FILE:LINE and exits 1; "layers ok: N files" otherwise.

Known and allowed until the architecture rework (issue 40) moves shared geometry below both:
collision and scene include each other."""
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
    "scene": {"core", "model", "collision"},
    "collision": {"core", "model", "kinematics", "scene"},
    "trajectory": {"core", "model"},
    "planning": {"core", "model", "kinematics", "collision", "scene", "trajectory"},
    "servo": {"core", "model", "kinematics", "collision", "scene"},
    "task": {"core", "model", "kinematics", "collision", "scene", "planning", "trajectory"},
}


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
