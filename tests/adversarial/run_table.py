#!/usr/bin/env python3
"""Adversarial table for kinetic-studio (issue 41): hostile inputs, each run in its own folder,
classified as clean error / accepted / crash / hang / unsafe write. Standard library only.

    tests/adversarial/run_table.py --binary build/app/kinetic-studio --artifacts /tmp/adv-artifacts
    tests/adversarial/run_table.py --binary ... --quick          # ~60 tries, CTest app_adversarial_quick
    tests/adversarial/run_table.py --binary ... --only xacro/floordiv_minus1 --keep   # one try, kept

Every input is generated here into a temporary folder (--tmp, default the system's); nothing is
written anywhere else except the artifacts folder. See README.md beside this file.
"""
import argparse
import hashlib
import json
import os
import random
import re
import resource
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
LIB = REPO / "tests" / "data" / "robot_library"

HEADLESS_CODES = {2, 3, 4, 5}          # documented failures of a headless run (docs/headless-jobs.md)
STUDIO_CODES = {1, 2}                  # the studio: usage error 2, no window 1 (app/main.cpp)
CRASH_PATTERNS = ["Segmentation fault", "std::bad_alloc", "terminate called", "AddressSanitizer",
                  "UndefinedBehaviorSanitizer", "LeakSanitizer", "runtime error:", "Floating point exception",
                  "stack overflow", "Aborted", "core dumped"]
MB = 1 << 20


# ----------------------------------------------------------------------------------------------
# Try definition
# ----------------------------------------------------------------------------------------------
class Try:
    """One hostile input. build(ctx) writes the inputs into ctx.work and returns the argument list
    (after the binary). ctx.out_rel names the output folder (relative to ctx.work)."""

    def __init__(self, category, name, build, refuse=False, studio=False):
        self.category, self.name, self.build, self.refuse, self.studio = category, name, build, refuse, studio


class Ctx:
    def __init__(self, root, victim):
        self.root = root
        self.work = root / "work"
        self.sentinel = root / "sentinel"
        self.victim = victim
        self.out_rel = "out"
        self.replaceable = set()   # files present before the run that outputs may replace

    @property
    def out(self):
        return (self.work / self.out_rel)

    def write(self, rel, data):
        p = self.work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        p.write_bytes(data)
        return rel

    def fifo(self, rel):
        p = self.work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(p)
        return rel

    def sparse(self, rel, size, head=b""):
        p = self.work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "wb") as f:
            f.write(head)
            f.truncate(size)
        return rel

    def symlink(self, rel, target):
        p = self.work / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, p)
        return rel

    def copy_robot(self, name="tiny_arm", prefix=""):
        for f in (LIB / name).iterdir():
            self.write(prefix + f.name, f.read_bytes())


# ----------------------------------------------------------------------------------------------
# Base inputs
# ----------------------------------------------------------------------------------------------
def raw_json(obj):
    """json.dumps with "__RAW__x" strings replaced by the raw text x (NaN, 1e400, ...)."""
    text = json.dumps(obj, ensure_ascii=False)
    return re.sub(r'"__RAW__([^"]*)"', lambda m: m.group(1), text)


def base_job():
    return {
        "format": "kinetic-job", "version": 1,
        "robot": {"urdf": "robot.urdf", "config": "kinetic.toml", "srdf": ""},
        "scene": {"format": "kinetic-scene", "version": 1, "obstacles": [
            {"name": "box", "shape": {"type": "box", "size": [0.1, 0.1, 0.1]},
             "pose": {"position": [0.5, 0.5, 0.05], "orientation": [0, 0, 0, 1]}}]},
        "start": "home",
        "defaults": {"planner": "rrt_connect", "options": {"seed": 1, "timeout_ms": 500},
                     "velocity_scaling": 0.5},
        "steps": [{"name": "first", "goal": {"named": "zero"}},
                  {"name": "second", "goal": {"joints": [0.3, 0.2, 0.1]}, "timing": "trapezoidal"}],
        "outputs": {"directory": "out",
                    "trajectories": [{"file": "a.json", "trajectory": "all"},
                                     {"file": "b.csv", "trajectory": "first"}]},
    }


def base_scene():
    return {
        "format": "kinetic-scene", "version": 1,
        "obstacles": [
            {"name": "table", "shape": {"type": "box", "size": [1.2, 0.8, 0.04]},
             "pose": {"position": [0.5, 0.0, -0.08], "orientation": [0, 0, 0, 1]}},
            {"name": "post", "shape": {"type": "cylinder", "radius": 0.05, "length": 0.6},
             "pose": {"position": [-0.5, -0.4, 0.3], "orientation": [0, 0, 0, 1]}},
            {"name": "lamp", "shape": {"type": "sphere", "radius": 0.08},
             "pose": {"position": [-0.5, -0.4, 0.7], "orientation": [0, 0, 0, 1]}},
            {"name": "fixture", "shape": {"type": "mesh", "path": "meshes/part.stl", "scale": [1, 1, 1]},
             "pose": {"position": [-0.5, 0.4, 0.0], "orientation": [0, 0, 0.7071068, 0.7071068]}},
            {"name": "floor", "shape": {"type": "half_space", "normal": [0, 0, 1], "offset": -0.2},
             "pose": {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]}},
        ],
        "attached": [
            {"name": "gripper_body", "link": "tool0",
             "shape": {"type": "cylinder", "radius": 0.02, "length": 0.05},
             "pose": {"position": [0, 0, 0.03], "orientation": [0, 0, 0, 1]}, "touch_links": ["link3"]}],
        "allowed": [["table", "post"]],
        "disallowed": [],
    }


def stl_binary(tris):
    out = bytearray(b"kinetic adversarial".ljust(80, b" "))
    out += struct.pack("<I", len(tris))
    for t in tris:
        out += struct.pack("<3f", 0, 0, 0)
        for v in t:
            out += struct.pack("<3f", *v)
        out += b"\0\0"
    return bytes(out)


def cube_tris(s=0.05):
    v = [(x, y, z) for x in (-s, s) for y in (-s, s) for z in (-s, s)]
    faces = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
             (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    return [tuple(v[i] for i in f) for f in faces]


CUBE_STL = stl_binary(cube_tris())

TINY_ARM_URDF = (LIB / "tiny_arm" / "robot.urdf").read_text()
TINY_ARM_TOML = (LIB / "tiny_arm" / "kinetic.toml").read_text()
TINY_GRIPPER_URDF = (LIB / "tiny_gripper" / "robot.urdf").read_text()
TINY_GRIPPER_SRDF = (LIB / "tiny_gripper" / "robot.srdf").read_text()


def trajectory_json(n=5, names=("joint1", "joint2", "joint3")):
    samples = []
    for i in range(n):
        t = i * 0.1
        samples.append({"t": t, "q": [0.01 * i] * len(names), "qd": [0.1] * len(names), "qdd": [0.0] * len(names)})
    samples[0]["qd"] = [0.0] * len(names)
    return {"format": "kinetic-trajectory", "format_version": 1, "robot": "tiny_arm",
            "joint_names": list(names), "units": {"time": "s", "position": ["rad"] * len(names)},
            "waypoint_times": [0.0, (n - 1) * 0.1], "samples": samples}


def base_session():
    return {
        "format": "kinetic-session", "version": 1,
        "robot": {"reference": "robot.urdf", "srdf": "", "config": "kinetic.toml", "package_paths": []},
        "joints": {"names": ["joint1", "joint2", "joint3"], "values": [0.0, 0.5, -0.5]},
        "scene": {"format": "kinetic-scene", "version": 1, "obstacles": [
            {"name": "box", "shape": {"type": "box", "size": [0.1, 0.1, 0.1]},
             "pose": {"position": [0.5, 0.5, 0.05], "orientation": [0, 0, 0, 1]}}],
            "attached": [], "allowed": [], "disallowed": []},
        "goal": {"joints": {"names": ["joint1", "joint2", "joint3"], "values": [0.1, 0.2, 0.3]},
                 "tcp_pose": {"position": [0.1, 0.0, 0.7], "orientation": [0, 0, 0, 1]}},
        "trajectories": [{"name": "t1", "trajectory": trajectory_json()}],
        "stored_states": [{"name": "s", "joints": {"joint1": 0.1, "joint2": 0.2, "joint3": 0.3}}],
        "settings": {"planner": "rrt_connect", "options": {"timeout_ms": 50, "seed": 1},
                     "timing": {"parameterization": "time_optimal", "velocity_scaling": 1, "acceleration_scaling": 1}},
        "camera": {"target": [0, 0, 0.4], "distance": 2.5, "azimuth": 0.8, "elevation": 0.4},
    }


# Hostile JSON values (raw text where JSON has no literal).
HOSTILE = [None, True, False, 0, -1, 3.5, "", "x", [], {}, [1, 2, 3], {"a": 1},
           "__RAW__NaN", "__RAW__Infinity", "__RAW__-Infinity", "__RAW__1e400", "__RAW__-1e400",
           "__RAW__18446744073709551616", "__RAW__-9223372036854775809", 1e308, -1e308, 5e-324,
           "\u001b[31mESC\u001b[0m", "a\nb", "x" * 100000, [[[[[[[[[[1]]]]]]]]]]]


def value_tag(v):
    """A short printable name for a hostile value."""
    t = v[7:] if isinstance(v, str) and v.startswith("__RAW__") else json.dumps(v)
    return re.sub(r"[^\x21-\x7e]", "?", t)[:14]


def json_paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from json_paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from json_paths(v, prefix + (i,))


def set_path(obj, path, value):
    import copy
    obj = copy.deepcopy(obj)
    if not path:
        return value
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    cur[path[-1]] = value
    return obj


def del_path(obj, path):
    import copy
    obj = copy.deepcopy(obj)
    cur = obj
    for p in path[:-1]:
        cur = cur[p]
    del cur[path[-1]]
    return obj


def pname(path):
    return ".".join(str(p) for p in path) or "(root)"


def deep_json(depth, kind="list"):
    if kind == "list":
        return "[" * depth + "1" + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


# ----------------------------------------------------------------------------------------------
# Category: job files
# ----------------------------------------------------------------------------------------------
def job_try(name, job_text_fn, refuse=False, extra=None, category="job"):
    """job_text_fn(ctx) -> text of job.json (the robot files are written first)."""
    def build(ctx):
        ctx.copy_robot()
        text = job_text_fn(ctx)
        if text is not None:
            ctx.write("job.json", text)
        if extra:
            extra(ctx)
        return ["--headless", "job.json"]
    return Try(category, name, build, refuse=refuse)


def job_tries(rng):
    tries = []
    job = base_job()
    paths = [p for p in json_paths(job) if p]
    # wrong types at every field: three hostile values each (seeded choice)
    for p in rng.sample(paths, 20):
        for v in rng.sample(HOSTILE, 1):
            tag = value_tag(v)
            tries.append(job_try(f"type/{pname(p)}={tag}", lambda ctx, p=p, v=v: raw_json(set_path(job, p, v))))
    # missing fields
    for p in rng.sample([p for p in paths if isinstance(p[-1], str)], 12):
        if True:
            tries.append(job_try(f"missing/{pname(p)}", lambda ctx, p=p: raw_json(del_path(job, p))))
    # extra / duplicate fields at every object
    for p in rng.sample([q for q in json_paths(job) if isinstance(_get(job, q), dict)], 8):
        def extra_field(ctx, p=p):
            o = set_path(job, p, dict(_get(job, p), **{"unexpected_field": 1}))
            return raw_json(o)
        tries.append(job_try(f"extra/{pname(p)}", extra_field))
    tries.append(job_try("duplicate_key/version", lambda ctx: raw_json(job).replace('"version": 1', '"version": 1, "version": 1', 1)))
    tries.append(job_try("duplicate_key/steps", lambda ctx: raw_json(job)[:-1] + ', "steps": []}'))
    # versions and formats
    for v in [0, 999, -1, "__RAW__1.5", "1", "__RAW__1e400", None]:
        tries.append(job_try(f"version/{v}", lambda ctx, v=v: raw_json(set_path(job, ("version",), v)), refuse=True))
    for f in ["kinetic-scene", "kinetic-session", "", "KINETIC-JOB"]:
        tries.append(job_try(f"format/{f or 'empty'}", lambda ctx, f=f: raw_json(set_path(job, ("format",), f)), refuse=True))
    # whole-file damage
    text = raw_json(job)
    for cut in (1, 10, len(text) // 3, len(text) // 2, len(text) - 1):
        tries.append(job_try(f"truncated/{cut}", lambda ctx, cut=cut: text[:cut], refuse=True))
    tries.append(job_try("empty", lambda ctx: "", refuse=True))
    tries.append(job_try("bom", lambda ctx: "\ufeff" + text))
    tries.append(job_try("utf16", lambda ctx: None, refuse=True,
                         extra=lambda ctx: ctx.write("job.json", text.encode("utf-16"))))
    tries.append(job_try("invalid_utf8_name", lambda ctx: None, refuse=True,
                         extra=lambda ctx: ctx.write("job.json", text.replace('"first"', '"fi\udcffrst"').encode("utf-8", "surrogateescape"))))
    tries.append(job_try("nul_bytes", lambda ctx: text.replace('"first"', '"fi\u0000rst"'), refuse=True))
    tries.append(job_try("binary_garbage", lambda ctx: None, refuse=True,
                         extra=lambda ctx: ctx.write("job.json", bytes(rng.randrange(256) for _ in range(4096)))))
    tries.append(job_try("deep_list_100k", lambda ctx: deep_json(100000), refuse=True))
    tries.append(job_try("deep_object_100k", lambda ctx: deep_json(100000, "obj"), refuse=True))
    tries.append(job_try("deep_in_comment_field", lambda ctx: text[:-1] + ', "comment": ' + deep_json(50000) + "}", refuse=True))
    tries.append(job_try("deep_in_options", lambda ctx: raw_json(set_path(job, ("defaults", "options", "seed"), "__RAW__" + deep_json(20000))), refuse=True))
    tries.append(job_try("huge_string_10MB_name", lambda ctx: raw_json(set_path(job, ("steps", 0, "name"), "n" * (10 * MB)))))
    tries.append(job_try("huge_string_10MB_robot", lambda ctx: raw_json(set_path(job, ("robot",), "r" * (10 * MB))), refuse=True))
    tries.append(job_try("oversize_17MB", lambda ctx: text[:-1] + ', "comment": "' + "c" * (17 * MB) + '"}', refuse=True))
    tries.append(job_try("huge_number_literal", lambda ctx: raw_json(set_path(job, ("defaults", "options", "seed"), "__RAW__" + "9" * 100000)), refuse=True))
    tries.append(job_try("many_steps_20k", lambda ctx: raw_json(set_path(job, ("steps",), [{"goal": {"named": "zero"}}] * 20000))))
    tries.append(job_try("many_outputs_same_file", lambda ctx: raw_json(set_path(job, ("outputs", "trajectories"), [{"file": "a.json"}] * 3)), refuse=True))
    # control characters and ESC in names
    for label, s in [("esc", "\u001b[2J\u001b]0;pwned\u0007"), ("newline", "a\nb"), ("cr", "a\rb"), ("del", "a\u007fb"),
                     ("bell", "a\u0007b"), ("c1_csi", "a\u009b31mb"), ("rtl", "a\u202eb"), ("tab", "a\tb")]:
        tries.append(job_try(f"ctl_step_name/{label}", lambda ctx, s=s: raw_json(set_path(job, ("steps", 0, "name"), s))))
        tries.append(job_try(f"ctl_output_file/{label}", lambda ctx, s=s: raw_json(set_path(job, ("outputs", "trajectories", 0, "file"), s + ".json")),
                             refuse=label in ("esc", "newline", "cr", "del", "bell", "c1_csi")))
        if label in ("esc", "newline", "c1_csi"):
            tries.append(job_try(f"ctl_unknown_robot/{label}", lambda ctx, s=s: raw_json(set_path(job, ("robot",), "ur" + s)), refuse=True))
    tries.append(job_try("ctl_goal_named_esc", lambda ctx: raw_json(set_path(job, ("steps", 0, "goal", "named"), "\u001b[31mzero")), refuse=True))
    tries.append(job_try("ctl_field_name_esc", lambda ctx: text[:-1] + ', "\u001b[31mfield": 1}', refuse=True))
    # output path tricks
    def out_file(f, **kw):
        return lambda ctx: raw_json(set_path(job, ("outputs", "trajectories", 0, "file"), f(ctx) if callable(f) else f))
    for label, f in [("dotdot", "../escaped.json"), ("dotdot_sentinel", "../../../sentinel/x.json"),
                     ("dotdot_victim", "../../../../victim/x.json"), ("dotdot_deep", "../" * 40 + "tmp/kinetic-adv-never.json"),
                     ("inner_dotdot", "sub/../../escaped.json"), ("absolute_victim", lambda ctx: str(ctx.victim / "abs.json")),
                     ("absolute_victim_existing", lambda ctx: str(ctx.victim / "x.json")),
                     ("job_itself", "../job.json"), ("urdf_itself", "../robot.urdf"), ("toml_itself", "../kinetic.toml"),
                     ("empty_name", ""), ("dot", "."), ("slash_end", "dir/"), ("only_ext", ".json"),
                     ("long_name_300", "n" * 300 + ".json"), ("long_path", "/".join(["d" * 200] * 30) + "/x.json"),
                     ("no_ext", "noext"), ("bad_ext", "a.exe"), ("backslash", "..\\..\\x.json")]:
        tries.append(job_try(f"out_path/{label}", out_file(f), refuse=label not in ("no_ext", "bad_ext", "backslash", "long_path")))
    for label, d in [("dotdot", "../outside"), ("dotdot_victim", "../../../victim"), ("absolute", lambda ctx: str(ctx.victim / "absdir")),
                     ("dot", "."), ("empty", ""), ("file_as_dir", "robot.urdf")]:
        def dj(ctx, d=d):
            return raw_json(set_path(job, ("outputs", "directory"), d(ctx) if callable(d) else d))
        def setup_dot(ctx, d=d):
            if d == ".":
                ctx.out_rel = "."
            if d == "":
                ctx.out_rel = "."
        tries.append(job_try(f"out_dir/{label}", dj, refuse=label in ("dotdot", "dotdot_victim", "absolute", "file_as_dir"), extra=setup_dot))
    # outputs named like inputs when the output folder is the job's folder
    for inp in ["job.json", "robot.urdf", "kinetic.toml"]:
        def same(ctx, inp=inp):
            ctx.out_rel = "."
            return raw_json(set_path(set_path(job, ("outputs", "directory"), "."), ("outputs", "trajectories", 0, "file"), inp))
        tries.append(job_try(f"out_named_like_input/{inp}", same, refuse=True))
    def mesh_overwrite(ctx):
        ctx.write("meshes/part.stl", CUBE_STL)
        sc = base_scene()
        j = set_path(job, ("scene",), {"format": "kinetic-scene", "version": 1, "obstacles": [sc["obstacles"][3]]})
        j = set_path(j, ("outputs", "directory"), ".")
        ctx.out_rel = "."
        return raw_json(set_path(j, ("outputs", "trajectories", 0, "file"), "meshes/part.stl"))
    tries.append(job_try("out_named_like_mesh", mesh_overwrite, refuse=True))
    def symlink_out(target_fn, name):
        def extra(ctx):
            ctx.out.mkdir(parents=True, exist_ok=True)
            ctx.symlink(f"out/{name}", target_fn(ctx))
            ctx.replaceable.add(f"out/{name}")
        return extra
    tries.append(job_try("out_symlink_dir_outside", lambda ctx: raw_json(set_path(job, ("outputs", "trajectories", 0, "file"), "link/x.json")),
                         refuse=True, extra=symlink_out(lambda ctx: str(ctx.victim), "link")))
    tries.append(job_try("out_symlink_dir_relative_outside", lambda ctx: raw_json(set_path(job, ("outputs", "trajectories", 0, "file"), "link/x.json")),
                         refuse=True, extra=symlink_out(lambda ctx: "../../sentinel", "link")))
    tries.append(job_try("out_symlink_file_to_victim", lambda ctx: text, extra=symlink_out(lambda ctx: str(ctx.victim / "x.json"), "a.json")))
    tries.append(job_try("out_symlink_file_to_job", lambda ctx: text, refuse=True, extra=symlink_out(lambda ctx: "../job.json", "a.json")))
    tries.append(job_try("out_symlink_to_dev_zero", lambda ctx: text, extra=symlink_out(lambda ctx: "/dev/zero", "a.json")))
    tries.append(job_try("out_folder_is_symlink_outside", lambda ctx: text, refuse=True,
                         extra=lambda ctx: (ctx.symlink("out", str(ctx.victim)))))
    def two_via_symlink(ctx):
        ctx.out.mkdir(parents=True, exist_ok=True)
        (ctx.out / "real").mkdir()
        ctx.symlink("out/alias", "real")
        ctx.replaceable.add("out/alias")
        return raw_json(set_path(job, ("outputs", "trajectories"), [{"file": "real/t.json", "trajectory": "first"},
                                                                   {"file": "alias/t.json", "trajectory": "second"}]))
    tries.append(job_try("two_outputs_one_real_file", two_via_symlink, refuse=True))
    def existing_fifo(ctx):
        ctx.out.mkdir(parents=True, exist_ok=True)
        ctx.fifo("out/a.json")
        ctx.replaceable.add("out/a.json")
        return text
    tries.append(job_try("out_existing_fifo", existing_fifo))
    def existing_dir(ctx):
        (ctx.out / "a.json").mkdir(parents=True)
        return text
    tries.append(job_try("out_existing_dir", existing_dir, refuse=True))
    def out_readonly(ctx):
        ctx.out.mkdir(parents=True)
        os.chmod(ctx.out, 0o500)
        return text
    tries.append(job_try("out_readonly_dir", out_readonly))
    # the job file itself is not a regular file
    tries.append(job_try("job_is_fifo", lambda ctx: None, refuse=True, extra=lambda ctx: ctx.fifo("job.json")))
    tries.append(job_try("job_is_dev_zero", lambda ctx: None, refuse=True, extra=lambda ctx: ctx.symlink("job.json", "/dev/zero")))
    tries.append(job_try("job_is_dir", lambda ctx: None, refuse=True, extra=lambda ctx: (ctx.work / "job.json").mkdir()))
    tries.append(job_try("job_missing", lambda ctx: None, refuse=True))
    tries.append(job_try("job_sparse_20MB", lambda ctx: None, refuse=True, extra=lambda ctx: ctx.sparse("job.json", 20 * MB, b"{")))
    # robot references that are not regular files
    for label, mk in [("fifo", lambda ctx: ctx.fifo("r.urdf")), ("dev_zero", lambda ctx: ctx.symlink("r.urdf", "/dev/zero")),
                      ("dir", lambda ctx: (ctx.work / "r.urdf").mkdir()), ("missing", lambda ctx: None)]:
        tries.append(job_try(f"robot_urdf_{label}", lambda ctx: raw_json(set_path(job, ("robot", "urdf"), "r.urdf")), refuse=True, extra=mk))
        tries.append(job_try(f"scene_file_{label}", lambda ctx: raw_json(set_path(job, ("scene",), "r.urdf")), refuse=True, extra=mk))
        tries.append(job_try(f"config_{label}", lambda ctx: raw_json(set_path(job, ("robot", "config"), "r.urdf")), refuse=True, extra=mk))
        tries.append(job_try(f"srdf_{label}", lambda ctx: raw_json(set_path(job, ("robot", "srdf"), "r.urdf")), refuse=True, extra=mk))
    # numbers at the edges
    for label, p, v in [("timeout_1e308", ("defaults", "options", "timeout_ms"), 1e308),
                        ("timeout_neg", ("defaults", "options", "timeout_ms"), -5),
                        ("iterations_huge", ("defaults", "options", "max_iterations"), "__RAW__99999999999999999999"),
                        ("seed_neg", ("defaults", "options", "seed"), -1),
                        ("resolution_tiny", ("defaults", "options", "resolution"), 1e-300),
                        ("margin_huge", ("defaults", "options", "margin"), 1e300),
                        ("range_nan", ("defaults", "options", "range"), "__RAW__NaN"),
                        ("vel_scaling_0", ("defaults", "velocity_scaling"), 0),
                        ("vel_scaling_tiny", ("defaults", "velocity_scaling"), 1e-300),
                        ("goal_joints_huge", ("steps", 1, "goal", "joints"), [1e308, 1e308, 1e308]),
                        ("goal_joints_long", ("steps", 1, "goal", "joints"), [0.1] * 100000),
                        ("start_joints_nan", ("start",), ["__RAW__NaN", 0, 0]),
                        ("shortcut_passes_huge", ("defaults", "options", "shortcut_passes"), 2000000000),
                        ("smoothing_passes_huge", ("defaults", "options", "smoothing_passes"), 2000000000),
                        ("ik_attempts_huge", ("defaults", "options", "ik_attempts"), 2000000000),
                        ("prm_neighbors_huge", ("defaults", "options", "prm_neighbors"), 2000000000),
                        ("workspace_inverted", ("defaults", "options", "workspace"), {"min": [1, 1, 1], "max": [-1, -1, -1]})]:
        tries.append(job_try(f"number/{label}", lambda ctx, p=p, v=v: raw_json(set_path(job, p, v))))
    for label, goal, planner in [("pose_10km", {"pose": {"xyz": [10000, 0, 0], "rpy": [0, 0, 0]}}, "cartesian"),
                                 ("pose_1e300", {"pose": {"xyz": [1e300, 0, 0], "rpy": [0, 0, 0]}}, "cartesian"),
                                 ("relative_10km", {"relative": {"xyz": [0, 0, 10000], "frame": "tool"}}, "cartesian"),
                                 ("pose_nan_rpy", {"pose": {"xyz": [0.1, 0, 0.6], "rpy": ["__RAW__NaN", 0, 0]}}, "rrt_connect"),
                                 ("quaternion_zero", {"pose": {"xyz": [0.1, 0, 0.6], "quaternion": [0, 0, 0, 0]}}, "rrt_connect"),
                                 ("arc_huge_angle", {"arc": {"center": [0, 0, 0.5], "axis": [0, 0, 1], "angle": 1e9}}, "cartesian"),
                                 ("arc_zero_axis", {"arc": {"center": [0, 0, 0.5], "axis": [0, 0, 0], "angle": 1}}, "cartesian"),
                                 ("pose_unreachable_rrt", {"pose": {"xyz": [5, 5, 5], "rpy": [0, 0, 0]}}, "rrt_star")]:
        def jg(ctx, goal=goal, planner=planner):
            j = set_path(job, ("steps", 1, "goal"), goal)
            j = set_path(j, ("steps", 1, "planner"), planner)
            j = set_path(j, ("start",), "home")
            if planner == "cartesian":
                j = set_path(j, ("steps", 1, "cartesian"), {"translation_step": 1e-6, "min_fraction": 0.0})
            return raw_json(j)
        tries.append(job_try(f"goal/{label}", jg))
    # rendering outputs with hostile sizes and counts
    for label, key, val in [("screenshot_huge", "screenshots", [{"file": "s.png", "width": 100000, "height": 100000}]),
                            ("screenshot_zero", "screenshots", [{"file": "s.png", "width": 0, "height": 0}]),
                            ("screenshot_neg", "screenshots", [{"file": "s.png", "width": -5, "height": 10}]),
                            ("screenshot_dotdot", "screenshots", [{"file": "../s.png", "width": 32, "height": 32}]),
                            ("screenshot_at_nan", "screenshots", [{"file": "s.png", "width": 32, "height": 32, "at": "__RAW__NaN"}]),
                            ("frames_count_1e9", "frames", [{"pattern": "f_#.png", "count": 1000000000, "width": 32, "height": 32}]),
                            ("frames_fps_1e9", "frames", [{"pattern": "f_#.png", "fps": 1e9, "width": 32, "height": 32}]),
                            ("frames_no_hash", "frames", [{"pattern": "f.png", "count": 3, "width": 32, "height": 32}]),
                            ("frames_dotdot", "frames", [{"pattern": "../f_#.png", "count": 2, "width": 32, "height": 32}]),
                            ("frames_abs", "frames", [{"pattern": "/tmp/kinetic-adv-f_#.png", "count": 2, "width": 32, "height": 32}]),
                            ("frames_hash_300", "frames", [{"pattern": "f_" + "#" * 300 + ".png", "count": 2, "width": 32, "height": 32}]),
                            ("frames_small_ok", "frames", [{"pattern": "fr/f_##.png", "count": 3, "width": 32, "height": 24}])]:
        tries.append(job_try(f"render/{label}", lambda ctx, key=key, val=val: raw_json(set_path(job, ("outputs", key), val)),
                             refuse=label in ("screenshot_dotdot", "frames_dotdot", "frames_abs", "screenshot_neg")))
    tries.append(job_try("render/screenshot_named_like_frame", lambda ctx: raw_json(set_path(set_path(job, ("outputs", "screenshots"), [{"file": "f_1.png", "width": 32, "height": 32}]),
                         ("outputs", "frames"), [{"pattern": "f_#.png", "count": 2, "width": 32, "height": 32}])), refuse=True))
    # inline scene blow-ups
    def many_obstacles(n):
        def f(ctx):
            obs = [{"name": f"o{i}", "shape": {"type": "sphere", "radius": 0.01},
                    "pose": {"position": [2 + (i % 100) * 0.03, (i // 100 % 100) * 0.03, (i // 10000) * 0.03], "orientation": [0, 0, 0, 1]}} for i in range(n)]
            return raw_json(set_path(job, ("scene", "obstacles"), obs))
        return f
    tries.append(job_try("scene_inline_20k_obstacles", many_obstacles(20000)))
    tries.append(job_try("scene_inline_100001_obstacles", many_obstacles(100001), refuse=True))
    return tries


def _get(obj, path):
    for p in path:
        obj = obj[p]
    return obj


# ----------------------------------------------------------------------------------------------
# Category: scene files (--scene)
# ----------------------------------------------------------------------------------------------
SCENE_ARGS = ["--headless", "--robot", "robot.urdf", "--config", "kinetic.toml", "--srdf", "none",
              "--goal-named", "zero", "--export", "t.json", "--output-dir", "out"]


def scene_try(name, fn, refuse=False, fname="scene.json", category="scene"):
    def build(ctx):
        ctx.copy_robot()
        ctx.write("meshes/part.stl", CUBE_STL)
        data = fn(ctx)
        if data is not None:
            ctx.write(fname, data)
        a = list(SCENE_ARGS)
        a[a.index("--goal-named")] = "--scene"
        a[a.index("zero")] = fname
        return a + ["--goal-named", "zero"]
    return Try(category, name, build, refuse=refuse)


def scene_tries(rng):
    tries = []
    sc = base_scene()
    tries.append(scene_try("valid_base", lambda ctx: raw_json(sc)))
    paths = [p for p in json_paths(sc) if p]
    for p in rng.sample(paths, 15):
        for v in rng.sample(HOSTILE, 1):
            tag = value_tag(v)
            tries.append(scene_try(f"type/{pname(p)}={tag}", lambda ctx, p=p, v=v: raw_json(set_path(sc, p, v))))
    for p in rng.sample([p for p in paths if isinstance(p[-1], str)], 8):
        tries.append(scene_try(f"missing/{pname(p)}", lambda ctx, p=p: raw_json(del_path(sc, p))))
    specials = [
        ("box_negative", ("obstacles", 0, "shape", "size"), [-1, 1, 1]),
        ("box_huge", ("obstacles", 0, "shape", "size"), [1e300, 1e300, 1e300]),
        ("box_tiny", ("obstacles", 0, "shape", "size"), [5e-324, 5e-324, 5e-324]),
        ("radius_zero", ("obstacles", 1, "shape", "radius"), 0),
        ("radius_nan", ("obstacles", 2, "shape", "radius"), "__RAW__NaN"),
        ("quat_zero", ("obstacles", 0, "pose", "orientation"), [0, 0, 0, 0]),
        ("quat_huge", ("obstacles", 0, "pose", "orientation"), [1e308, 1e308, 1e308, 1e308]),
        ("quat_3", ("obstacles", 0, "pose", "orientation"), [0, 0, 1]),
        ("position_inf", ("obstacles", 0, "pose", "position"), ["__RAW__Infinity", 0, 0]),
        ("halfspace_zero_normal", ("obstacles", 4, "shape", "normal"), [0, 0, 0]),
        ("halfspace_nan_offset", ("obstacles", 4, "shape", "offset"), "__RAW__NaN"),
        ("mesh_scale_zero", ("obstacles", 3, "shape", "scale"), [0, 0, 0]),
        ("mesh_scale_huge", ("obstacles", 3, "shape", "scale"), [1e9, 1e9, 1e9]),
        ("mesh_missing", ("obstacles", 3, "shape", "path"), "meshes/none.stl"),
        ("mesh_dev_zero", ("obstacles", 3, "shape", "path"), "/dev/zero"),
        ("mesh_dir", ("obstacles", 3, "shape", "path"), "meshes"),
        ("mesh_dotdot", ("obstacles", 3, "shape", "path"), "../../../../../../etc/passwd"),
        ("mesh_is_urdf", ("obstacles", 3, "shape", "path"), "robot.urdf"),
        ("shape_unknown", ("obstacles", 0, "shape", "type"), "cone"),
        ("attached_unknown_link", ("attached", 0, "link"), "no_such_link"),
        ("touch_unknown_link", ("attached", 0, "touch_links"), ["nope"]),
        ("allowed_unknown", ("allowed",), [["nope", "nada"]]),
        ("allowed_triple", ("allowed",), [["a", "b", "c"]]),
        ("duplicate_names", ("obstacles", 1, "name"), "table"),
        ("name_esc", ("obstacles", 0, "name"), "\u001b[31mtable\u001b[0m"),
        ("name_newline", ("obstacles", 0, "name"), "ta\nble"),
        ("name_10MB", ("obstacles", 0, "name"), "n" * (10 * MB)),
        ("name_empty", ("obstacles", 0, "name"), ""),
        ("version_0", ("version",), 0), ("version_999", ("version",), 999),
        ("format_job", ("format",), "kinetic-job"),
    ]
    for label, p, v in specials:
        tries.append(scene_try(f"special/{label}", lambda ctx, p=p, v=v: raw_json(set_path(sc, p, v)),
                               refuse=label.startswith(("version", "format", "name_esc", "name_newline", "mesh_missing",
                                                        "mesh_dev_zero", "mesh_dir", "shape_unknown", "attached_unknown", "duplicate"))))
    def mesh_file(label, data_fn):
        def f(ctx):
            data_fn(ctx)
            return raw_json(sc)
        tries.append(scene_try(f"mesh/{label}", f))
    mesh_file("fifo", lambda ctx: (os.unlink(ctx.work / "meshes/part.stl"), ctx.fifo("meshes/part.stl")))
    mesh_file("truncated", lambda ctx: ctx.write("meshes/part.stl", CUBE_STL[:100]))
    mesh_file("count_huge", lambda ctx: ctx.write("meshes/part.stl", CUBE_STL[:80] + struct.pack("<I", 0xFFFFFFFF) + CUBE_STL[84:]))
    mesh_file("nan_vertices", lambda ctx: ctx.write("meshes/part.stl", stl_binary([((float("nan"),) * 3,) * 3] * 12)))
    mesh_file("empty", lambda ctx: ctx.write("meshes/part.stl", b""))
    mesh_file("sparse_300MB", lambda ctx: ctx.sparse("meshes/part.stl", 300 * MB, CUBE_STL[:80] + struct.pack("<I", 10)))
    # whole-file damage and blow-ups
    text = raw_json(sc)
    tries.append(scene_try("truncated_half", lambda ctx: text[: len(text) // 2], refuse=True))
    tries.append(scene_try("empty", lambda ctx: "", refuse=True))
    tries.append(scene_try("deep_100k", lambda ctx: deep_json(100000), refuse=True))
    tries.append(scene_try("deep_obstacles_value", lambda ctx: text.replace('"disallowed": []', '"disallowed": ' + deep_json(50000)), refuse=True))
    tries.append(scene_try("is_fifo", lambda ctx: (ctx.fifo("scene.json"), None)[1], refuse=True))
    tries.append(scene_try("is_dev_zero", lambda ctx: (ctx.symlink("scene.json", "/dev/zero"), None)[1], refuse=True))
    tries.append(scene_try("sparse_70MB", lambda ctx: (ctx.sparse("scene.json", 70 * MB, b"{"), None)[1], refuse=True))
    tries.append(scene_try("is_job", lambda ctx: raw_json(base_job()), refuse=True))
    tries.append(scene_try("is_session", lambda ctx: raw_json(base_session()), refuse=True))
    tries.append(scene_try("is_trajectory", lambda ctx: raw_json(trajectory_json()), refuse=True))
    tries.append(scene_try("is_urdf", lambda ctx: TINY_ARM_URDF, refuse=True))
    def many(n):
        return lambda ctx: raw_json(set_path(sc, ("obstacles",), [
            {"name": f"o{i}", "shape": {"type": "box", "size": [0.01, 0.01, 0.01]},
             "pose": {"position": [3 + (i % 100) * 0.02, (i // 100 % 100) * 0.02, (i // 10000) * 0.02], "orientation": [0, 0, 0, 1]}}
            for i in range(n)]))
    tries.append(scene_try("obstacles_40k", many(40000)))
    tries.append(scene_try("obstacles_100001", many(100001), refuse=True))
    tries.append(scene_try("obstacles_many_meshes_500", lambda ctx: raw_json(set_path(sc, ("obstacles",), [
        dict(sc["obstacles"][3], name=f"m{i}", pose={"position": [3 + i * 0.2, 0, 0], "orientation": [0, 0, 0, 1]}) for i in range(500)]))))
    return tries


# ----------------------------------------------------------------------------------------------
# Category: URDF
# ----------------------------------------------------------------------------------------------
def urdf_args(n_joints=3, fname="robot.urdf"):
    return ["--headless", "--robot", fname, "--config", "none", "--srdf", "none",
            "--goal-joints", " ".join(["0.01"] * n_joints), "--export", "t.json", "--output-dir", "out"]


def urdf_try(name, text_fn, n_joints=3, refuse=False, category="urdf", extra=None, fname="robot.urdf"):
    def build(ctx):
        data = text_fn(ctx)
        if data is not None:
            ctx.write(fname, data)
        if extra:
            extra(ctx)
        return urdf_args(n_joints, fname)
    return Try(category, name, build, refuse=refuse)


def chain_urdf(n, kind="revolute", link_geom="", extra_joint_xml=lambda i: "", name="chain"):
    parts = [f'<?xml version="1.0"?>\n<robot name="{name}">']
    for i in range(n + 1):
        parts.append(f'<link name="l{i}">{link_geom}</link>')
    for i in range(n):
        parts.append(f'<joint name="j{i}" type="{kind}"><parent link="l{i}"/><child link="l{i + 1}"/>'
                     f'<origin xyz="0 0 0.01"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/>'
                     f'{extra_joint_xml(i)}</joint>')
    parts.append("</robot>")
    return "\n".join(parts)


def urdf_tries(rng):
    tries = []
    U = TINY_ARM_URDF
    tries.append(urdf_try("valid_base", lambda ctx: U))
    for cut in (5, 50, len(U) // 2, len(U) - 3):
        tries.append(urdf_try(f"truncated/{cut}", lambda ctx, cut=cut: U[:cut], refuse=True))
    for label, a, b in [
        ("unclosed_tag", '<link name="tool0"/>', '<link name="tool0">'),
        ("bad_attr_quote", 'name="joint1"', 'name="joint1'),
        ("cycle", '<parent link="link2"/><child link="link3"/>', '<parent link="link3"/><child link="link1"/>'),
        ("self_loop", '<parent link="link2"/><child link="link3"/>', '<parent link="link3"/><child link="link3"/>'),
        ("two_parents", '<parent link="link2"/><child link="link3"/>', '<parent link="base_link"/><child link="link2"/>'),
        ("unknown_parent", '<parent link="link2"/>', '<parent link="nope"/>'),
        ("unknown_child", '<child link="link3"/>', '<child link="nope"/>'),
        ("duplicate_link", '<link name="tool0"/>', '<link name="tool0"/><link name="tool0"/>'),
        ("duplicate_joint_name", 'joint name="joint3"', 'joint name="joint2"'),
        ("nan_origin", '<origin xyz="0 0 0.3"/>', '<origin xyz="nan 0 0.3"/>'),
        ("inf_origin", '<origin xyz="0 0 0.3"/>', '<origin xyz="inf 0 0.3"/>'),
        ("huge_origin", '<origin xyz="0 0 0.3"/>', '<origin xyz="1e308 1e308 1e308"/>'),
        ("origin_2_values", '<origin xyz="0 0 0.3"/>', '<origin xyz="0 0"/>'),
        ("origin_text", '<origin xyz="0 0 0.3"/>', '<origin xyz="a b c"/>'),
        ("rpy_huge", '<origin xyz="0 0 0.3"/>', '<origin xyz="0 0 0.3" rpy="1e300 1e300 1e300"/>'),
        ("axis_zero", '<axis xyz="0 1 0"/>', '<axis xyz="0 0 0"/>'),
        ("axis_nan", '<axis xyz="0 1 0"/>', '<axis xyz="nan nan nan"/>'),
        ("limit_inverted", 'lower="-2.0" upper="2.0"', 'lower="2.0" upper="-2.0"'),
        ("limit_nan", 'lower="-2.0" upper="2.0"', 'lower="nan" upper="nan"'),
        ("limit_huge", 'lower="-2.0" upper="2.0"', 'lower="-1e308" upper="1e308"'),
        ("velocity_tiny", 'velocity="1.5"', 'velocity="1e-300"'),
        ("velocity_zero", 'velocity="1.5"', 'velocity="0"'),
        ("velocity_negative", 'velocity="1.5"', 'velocity="-1"'),
        ("velocity_nan", 'velocity="1.5"', 'velocity="nan"'),
        ("effort_text", 'effort="40"', 'effort="lots"'),
        ("unknown_joint_type", 'type="revolute">\n    <parent link="link1"/>', 'type="warp">\n    <parent link="link1"/>'),
        ("box_negative", '<box size="0.08 0.08 0.3"/></geometry></collision>', '<box size="-1 -1 -1"/></geometry></collision>'),
        ("box_nan", '<box size="0.08 0.08 0.3"/></geometry></collision>', '<box size="nan 1 1"/></geometry></collision>'),
        ("cylinder_huge", '<cylinder radius="0.1" length="0.1"/></geometry></collision>', '<cylinder radius="1e300" length="1e300"/></geometry></collision>'),
        ("robot_name_esc", 'robot name="tiny_arm"', 'robot name="\x1b[31mtiny\x1b[0m"'),
        ("link_name_esc", 'link name="link3"', 'link name="li\x1b]0;x\x07nk3"'),
        ("link_name_ctl_ref", 'link name="link3"', 'link name="li&#27;nk3"'),
        ("joint_name_newline", 'joint name="joint3"', 'joint name="joi&#10;nt3"'),
        ("robot_name_10MB", 'robot name="tiny_arm"', 'robot name="' + "r" * (10 * MB) + '"'),
        ("link_name_300", 'link name="link3"', 'link name="' + "l" * 300 + '"'),
        ("no_robot_element", '<robot name="tiny_arm">', '<robobo name="tiny_arm">'),
        ("mesh_missing", '<sphere radius="0.04"/>', '<mesh filename="meshes/none.stl"/>'),
        ("mesh_package_unknown", '<sphere radius="0.04"/>', '<mesh filename="package://no_pkg/m.stl"/>'),
        ("mesh_file_url_dev_zero", '<sphere radius="0.04"/>', '<mesh filename="file:///dev/zero"/>'),
        ("mesh_dev_zero", '<sphere radius="0.04"/>', '<mesh filename="/dev/zero"/>'),
        ("mesh_http", '<sphere radius="0.04"/>', '<mesh filename="http://127.0.0.1:9/m.stl"/>'),
        ("mesh_dotdot", '<sphere radius="0.04"/>', '<mesh filename="../../../../../../../../proc/self/mem"/>'),
        ("mesh_scale_zero", '<sphere radius="0.04"/>', '<mesh filename="m.stl" scale="0 0 0"/>'),
        ("texture_victim", '<material name="blue"><color rgba="0.1 0.2 0.8 1"/></material>', '<material name="blue"><texture filename="/dev/zero"/></material>'),
        ("rgba_nan", 'rgba="0.1 0.2 0.8 1"', 'rgba="nan nan nan nan"'),
        ("xxe_file", '<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/hostname">]>'),
        ("xxe_dev_zero", '<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "/dev/zero">]><!-- &x; -->'),
        ("billion_laughs", '<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>'),
        ("billion_laughs_used", 'robot name="tiny_arm"', 'robot name="&h;"'),
    ]:
        def sub(ctx, a=a, b=b, label=label):
            t = U
            if label == "billion_laughs_used":
                t = t.replace('<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;"><!ENTITY h "&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;">]>')
            assert a in t, label
            return t.replace(a, b, 1)
        tries.append(urdf_try(f"edit/{label}", sub, refuse=label in (
            "cycle", "self_loop", "two_parents", "unknown_parent", "unknown_child", "duplicate_link", "velocity_tiny",
            "nan_origin", "robot_name_10MB", "link_name_300", "no_robot_element")))
    # sizes and trees
    tries.append(urdf_try("chain_64", lambda ctx: chain_urdf(64), n_joints=64))
    tries.append(urdf_try("chain_65", lambda ctx: chain_urdf(65), n_joints=65))
    tries.append(urdf_try("chain_200_collision", lambda ctx: chain_urdf(200, link_geom='<collision><geometry><sphere radius="0.004"/></geometry></collision>'), n_joints=200))
    tries.append(urdf_try("chain_2000", lambda ctx: chain_urdf(2000), n_joints=2000))
    tries.append(urdf_try("chain_2000_collision", lambda ctx: chain_urdf(2000, link_geom='<collision><geometry><sphere radius="0.004"/></geometry></collision>'), n_joints=2000))
    tries.append(urdf_try("chain_20000_fixed", lambda ctx: chain_urdf(20000, kind="fixed"), n_joints=0))
    def star(n):
        parts = ['<robot name="star"><link name="root"/>']
        for i in range(n):
            parts.append(f'<link name="s{i}"><collision><geometry><box size="0.01 0.01 0.01"/></geometry></collision></link>'
                         f'<joint name="js{i}" type="revolute"><parent link="root"/><child link="s{i}"/><axis xyz="0 0 1"/>'
                         f'<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>')
        return "".join(parts) + "</robot>"
    tries.append(urdf_try("star_2000", lambda ctx: star(2000), n_joints=2000))
    tries.append(urdf_try("no_joints", lambda ctx: '<robot name="one"><link name="a"/></robot>', n_joints=1, refuse=True))
    tries.append(urdf_try("no_links", lambda ctx: '<robot name="none"></robot>', n_joints=1, refuse=True))
    tries.append(urdf_try("only_fixed", lambda ctx: chain_urdf(3, kind="fixed"), n_joints=1, refuse=True))
    tries.append(urdf_try("two_roots", lambda ctx: U.replace('<link name="tool0"/>', '<link name="tool0"/><link name="orphan"/>')))
    # mimic chains and loops
    def mimic(i):
        return f'<mimic joint="j{i - 1}" multiplier="1" offset="0"/>' if i > 0 else ""
    tries.append(urdf_try("mimic_chain_50", lambda ctx: chain_urdf(50, extra_joint_xml=mimic), n_joints=1))
    tries.append(urdf_try("mimic_chain_1500", lambda ctx: chain_urdf(1500, extra_joint_xml=mimic), n_joints=1))
    tries.append(urdf_try("mimic_loop_2", lambda ctx: chain_urdf(2, extra_joint_xml=lambda i: f'<mimic joint="j{1 - i}"/>'), n_joints=0, refuse=True))
    tries.append(urdf_try("mimic_loop_100", lambda ctx: chain_urdf(100, extra_joint_xml=lambda i: f'<mimic joint="j{(i + 1) % 100}"/>'), n_joints=0, refuse=True))
    tries.append(urdf_try("mimic_self", lambda ctx: chain_urdf(2, extra_joint_xml=lambda i: '<mimic joint="j1"/>' if i == 1 else ""), n_joints=1, refuse=True))
    tries.append(urdf_try("mimic_unknown", lambda ctx: chain_urdf(2, extra_joint_xml=lambda i: '<mimic joint="nope"/>' if i == 1 else ""), n_joints=1, refuse=True))
    tries.append(urdf_try("mimic_nan_multiplier", lambda ctx: chain_urdf(2, extra_joint_xml=lambda i: '<mimic joint="j0" multiplier="nan" offset="inf"/>' if i == 1 else ""), n_joints=1))
    tries.append(urdf_try("mimic_huge_multiplier", lambda ctx: chain_urdf(2, extra_joint_xml=lambda i: '<mimic joint="j0" multiplier="1e308"/>' if i == 1 else ""), n_joints=1))
    # files that are not regular
    tries.append(urdf_try("is_fifo", lambda ctx: (ctx.fifo("robot.urdf"), None)[1], refuse=True))
    tries.append(urdf_try("is_dev_zero", lambda ctx: (ctx.symlink("robot.urdf", "/dev/zero"), None)[1], refuse=True))
    tries.append(urdf_try("is_dir", lambda ctx: ((ctx.work / "robot.urdf").mkdir(), None)[1], refuse=True))
    tries.append(urdf_try("sparse_70MB", lambda ctx: (ctx.sparse("robot.urdf", 70 * MB, b"<robot>"), None)[1], refuse=True))
    tries.append(urdf_try("empty", lambda ctx: "", refuse=True))
    tries.append(urdf_try("binary", lambda ctx: bytes(rng.randrange(256) for _ in range(2048)), refuse=True))
    tries.append(urdf_try("deep_xml_100k", lambda ctx: '<robot name="d">' + "<a>" * 100000 + "</a>" * 100000 + "</robot>", refuse=True))
    tries.append(urdf_try("huge_attr_count", lambda ctx: U.replace('<robot name="tiny_arm">', '<robot name="tiny_arm" ' + " ".join(f'a{i}="1"' for i in range(100000)) + ">")))
    return tries


# ----------------------------------------------------------------------------------------------
# Category: SRDF
# ----------------------------------------------------------------------------------------------
def srdf_try(name, text_fn, refuse=False):
    def build(ctx):
        ctx.write("robot.urdf", TINY_GRIPPER_URDF)
        data = text_fn(ctx)
        if data is not None:
            ctx.write("robot.srdf", data)
        return ["--headless", "--robot", "robot.urdf", "--srdf", "robot.srdf", "--config", "none",
                "--goal-named", "home", "--export", "t.json", "--output-dir", "out"]
    return Try("srdf", name, build, refuse=refuse)


def srdf_tries(rng):
    S = TINY_GRIPPER_SRDF
    tries = [srdf_try("valid_base", lambda ctx: S)]
    edits = [
        ("joint_twice_in_group", '<joint name="finger_right_joint"/>', '<joint name="finger_right_joint"/><joint name="finger_left_joint"/>', True),
        ("unknown_joint_in_group", '<joint name="finger_right_joint"/>', '<joint name="nope_joint"/>', True),
        ("unknown_link_chain", 'tip_link="hand"', 'tip_link="nope"', True),
        ("chain_reversed", 'base_link="base" tip_link="hand"', 'base_link="hand" tip_link="base"', True),
        ("chain_same", 'base_link="base" tip_link="hand"', 'base_link="base" tip_link="base"', True),
        ("duplicate_group", '<group name="gripper">', '<group name="arm">', True),
        ("group_includes_itself", '<group name="arm"/>\n    <group name="gripper"/>', '<group name="everything"/>', True),
        ("group_cycle", '<group name="gripper">\n    <joint name="finger_left_joint"/>', '<group name="gripper">\n    <group name="everything"/><joint name="finger_left_joint"/>', True),
        ("unknown_subgroup", '<group name="gripper"/>\n  </group>', '<group name="nope"/>\n  </group>', True),
        ("state_unknown_group", 'group_state name="open" group="gripper"', 'group_state name="open" group="nope"', True),
        ("state_unknown_joint", '<joint name="elbow" value="0.2"/>', '<joint name="nope" value="0.2"/>', True),
        ("state_nan", '<joint name="elbow" value="0.2"/>', '<joint name="elbow" value="nan"/>', True),
        ("state_huge", '<joint name="elbow" value="0.2"/>', '<joint name="elbow" value="1e308"/>', True),
        ("state_text", '<joint name="elbow" value="0.2"/>', '<joint name="elbow" value="abc"/>', True),
        ("state_joint_twice", '<joint name="elbow" value="0.2"/>', '<joint name="elbow" value="0.2"/><joint name="elbow" value="0.3"/>', True),
        ("duplicate_state", '<group_state name="open" group="gripper">', '<group_state name="home" group="arm">', False),
        ("ee_unknown_link", 'parent_link="hand" group="gripper"', 'parent_link="nope" group="gripper"', True),
        ("ee_unknown_group", 'parent_link="hand" group="gripper"', 'parent_link="hand" group="nope"', True),
        ("vj_bad_type", 'type="fixed" parent_frame', 'type="warp" parent_frame', True),
        ("vj_unknown_child", 'child_link="base"', 'child_link="nope"', True),
        ("disable_unknown", 'link1="finger_left" link2="finger_right"', 'link1="nope" link2="nada"', False),
        ("disable_same", 'link1="finger_left" link2="finger_right"', 'link1="hand" link2="hand"', False),
        ("robot_name_other", '<robot name="tiny_gripper">', '<robot name="other">', False),
        ("group_name_esc", '<group name="gripper">', '<group name="gr\x1b[31mipper">', True),
        ("group_name_10MB", '<group name="gripper">', '<group name="' + "g" * (10 * MB) + '">', True),
        ("truncated", "</robot>", "", True),
        ("malformed_attr", 'name="arm">', 'name="arm>', True),
        ("billion_laughs", '<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;">]>', False),
    ]
    for label, a, b, refuse in edits:
        def sub(ctx, a=a, b=b, label=label):
            assert a in S, label
            return S.replace(a, b, 1)
        tries.append(srdf_try(f"edit/{label}", sub, refuse=refuse))
    tries.append(srdf_try("many_disable_200k", lambda ctx: S.replace("</robot>", '<disable_collisions link1="hand" link2="finger_left" reason="x"/>' * 200000 + "</robot>")))
    tries.append(srdf_try("many_groups_5000", lambda ctx: S.replace("</robot>", "".join(f'<group name="g{i}"><group name="g{i + 1}"/></group>' for i in range(5000)) + '<group name="g5000"><joint name="elbow"/></group></robot>')))
    tries.append(srdf_try("group_nesting_5000_deep", lambda ctx: S.replace("</robot>", "".join(f'<group name="h{i}"><group name="h{i + 1}"/></group>' for i in range(5000)) + '<group name="h5000"><group name="h0"/></group></robot>'), refuse=True))
    tries.append(srdf_try("is_fifo", lambda ctx: (ctx.fifo("robot.srdf"), None)[1], refuse=True))
    tries.append(srdf_try("is_dev_zero", lambda ctx: (ctx.symlink("robot.srdf", "/dev/zero"), None)[1], refuse=True))
    tries.append(srdf_try("sparse_20MB", lambda ctx: (ctx.sparse("robot.srdf", 20 * MB, b"<robot>"), None)[1], refuse=True))
    tries.append(srdf_try("empty", lambda ctx: "", refuse=True))
    tries.append(srdf_try("is_urdf", lambda ctx: TINY_GRIPPER_URDF, refuse=True))
    return tries


# ----------------------------------------------------------------------------------------------
# Category: kinetic.toml
# ----------------------------------------------------------------------------------------------
def toml_try(name, text_fn, refuse=False, goal=("--goal-named", "zero")):
    def build(ctx):
        ctx.write("robot.urdf", TINY_ARM_URDF)
        data = text_fn(ctx)
        if data is not None:
            ctx.write("kinetic.toml", data)
        return ["--headless", "--robot", "robot.urdf", "--config", "kinetic.toml", "--srdf", "none",
                *goal, "--export", "t.json", "--output-dir", "out"]
    return Try("toml", name, build, refuse=refuse)


def toml_tries(rng):
    T = TINY_ARM_TOML
    tries = [toml_try("valid_base", lambda ctx: T)]
    edits = [
        ("chain_string", 'chain = ["base_link", "tool0"]', 'chain = "base_link"', True),
        ("chain_unknown", 'chain = ["base_link", "tool0"]', 'chain = ["base_link", "nope"]', True),
        ("chain_reversed", 'chain = ["base_link", "tool0"]', 'chain = ["tool0", "base_link"]', True),
        ("chain_empty", 'chain = ["base_link", "tool0"]', 'chain = []', True),
        ("tcp_nan", "tcp_xyz = [0.0, 0.0, 0.1]", "tcp_xyz = [nan, 0.0, 0.1]", True),
        ("tcp_inf", "tcp_xyz = [0.0, 0.0, 0.1]", "tcp_xyz = [inf, 0.0, 0.1]", True),
        ("tcp_2", "tcp_xyz = [0.0, 0.0, 0.1]", "tcp_xyz = [0.0, 0.1]", True),
        ("tcp_huge", "tcp_xyz = [0.0, 0.0, 0.1]", "tcp_xyz = [1e308, 1e308, 1e308]", False),
        ("solver_opw_no_table", 'solver = "numeric"', 'solver = "opw"', True),
        ("solver_unknown", 'solver = "numeric"', 'solver = "magic"', True),
        ("solver_int", 'solver = "numeric"', 'solver = 3', True),
        ("ik_group_unknown", 'group = "arm"\ntimeout_ms', 'group = "nope"\ntimeout_ms', True),
        ("timeout_negative", "timeout_ms = 2.0", "timeout_ms = -2.0", True),
        ("timeout_huge", "timeout_ms = 2.0", "timeout_ms = 1e308", True),
        ("timeout_nan", "timeout_ms = 2.0", "timeout_ms = nan", True),
        ("timeout_string", "timeout_ms = 2.0", 'timeout_ms = "2"', True),
        ("pose_short", "home = [0.0, 0.5, -0.5]", "home = [0.0]", True),
        ("pose_long", "home = [0.0, 0.5, -0.5]", "home = [0.0, 0.5, -0.5, 1, 2, 3]", True),
        ("pose_out_of_range", "home = [0.0, 0.5, -0.5]", "home = [100.0, 0.5, -0.5]", True),
        ("pose_nan", "home = [0.0, 0.5, -0.5]", "home = [nan, 0.5, -0.5]", True),
        ("pose_strings", "home = [0.0, 0.5, -0.5]", 'home = ["a", "b", "c"]', True),
        ("pose_mixed_types", "home = [0.0, 0.5, -0.5]", 'home = [0.0, "b", true]', True),
        ("pose_name_esc", "home = [0.0, 0.5, -0.5]", '"ho\\u001bme" = [0.0, 0.5, -0.5]', False),
        ("accel_zero", "acceleration = { joint1 = 3.0 }", "acceleration = { joint1 = 0.0 }", True),
        ("accel_negative", "acceleration = { joint1 = 3.0 }", "acceleration = { joint1 = -3.0 }", True),
        ("accel_inf", "acceleration = { joint1 = 3.0 }", "acceleration = { joint1 = inf }", True),
        ("accel_tiny", "acceleration = { joint1 = 3.0 }", "acceleration = { joint1 = 1e-300 }", True),
        ("accel_unknown_joint", "acceleration = { joint1 = 3.0 }", "acceleration = { nope = 3.0 }", False),
        ("jerk_string", "jerk = { joint2 = 40.0 }", 'jerk = "fast"', True),
        ("padding_negative", "padding = 0.01", "padding = -1.0", True),
        ("padding_huge", "padding = 0.01", "padding = 1e308", True),
        ("padding_nan", "padding = 0.01", "padding = nan", True),
        ("skip_unknown", 'skip_pairs = [["base_link", "link2"]]', 'skip_pairs = [["nope", "nada"]]', False),
        ("skip_triple", 'skip_pairs = [["base_link", "link2"]]', 'skip_pairs = [["a", "b", "c"]]', True),
        ("validation_wrong", "home_tcp_xyz = [0.1198564, 0.0, 0.7693956]", "home_tcp_xyz = [9.0, 9.0, 9.0]", True),
        ("tolerance_negative", "tolerance = 1e-3", "tolerance = -1.0", True),
        ("duplicate_table", "[collision]", "[limits]\n[collision]", True),
        ("duplicate_key", "padding = 0.01", "padding = 0.01\npadding = 0.02", True),
        ("unknown_section", "[collision]", "[colision]\nx = 1\n[collision]", False),
        ("unterminated_string", 'name = "tiny_arm"', 'name = "tiny_arm', True),
        ("bad_syntax", "[validation]", "[validation", True),
        ("int_overflow", "padding = 0.01", "padding = 0.01\nx = 99999999999999999999999", True),
        ("urdf_points_to_dev_zero", 'urdf = "robot.urdf"', 'urdf = "/dev/zero"', False),
        ("urdf_points_dotdot", 'urdf = "robot.urdf"', 'urdf = "../../../../etc/passwd"', False),
    ]
    for label, a, b, refuse in edits:
        def sub(ctx, a=a, b=b, label=label):
            assert a in T, label
            return T.replace(a, b, 1)
        tries.append(toml_try(f"edit/{label}", sub, refuse=refuse))
    tries.append(toml_try("opw_partial_table", lambda ctx: T.replace('solver = "numeric"', 'solver = "opw"') + "\n[ik.opw]\na1 = 0.1\n", refuse=True))
    tries.append(toml_try("opw_nan_table", lambda ctx: T.replace('solver = "numeric"', 'solver = "opw"') +
                          "\n[ik.opw]\na1 = nan\na2 = 0\nb = 0\nc1 = 0\nc2 = 0\nc3 = 0\nc4 = 0\noffsets = [0,0,0,0,0,0]\nsign_corrections = [1,1,1,1,1,1]\n", refuse=True))
    tries.append(toml_try("deep_inline_tables_10k", lambda ctx: T + "\nx = " + "{a=" * 10000 + "1" + "}" * 10000 + "\n", refuse=True))
    tries.append(toml_try("deep_arrays_100k", lambda ctx: T + "\nx = " + "[" * 100000 + "1" + "]" * 100000 + "\n", refuse=True))
    tries.append(toml_try("huge_string_3MB", lambda ctx: T.replace('model = "Tiny Arm"', 'model = "' + "m" * (3 * MB) + '"')))
    tries.append(toml_try("sparse_5MB", lambda ctx: (ctx.sparse("kinetic.toml", 5 * MB, b"# x\n"), None)[1], refuse=True))
    tries.append(toml_try("many_named_poses_50k", lambda ctx: T.replace("[named_poses]", "[named_poses]\n" + "".join(f"p{i} = [0.0, 0.0, 0.0]\n" for i in range(50000)))))
    tries.append(toml_try("name_esc", lambda ctx: T.replace('name = "tiny_arm"', 'name = "ti\\u001b[31mny"')))
    tries.append(toml_try("is_fifo", lambda ctx: (ctx.fifo("kinetic.toml"), None)[1], refuse=True))
    tries.append(toml_try("is_dev_zero", lambda ctx: (ctx.symlink("kinetic.toml", "/dev/zero"), None)[1], refuse=True))
    tries.append(toml_try("is_dir", lambda ctx: ((ctx.work / "kinetic.toml").mkdir(), None)[1], refuse=True))
    tries.append(toml_try("empty", lambda ctx: ""))
    tries.append(toml_try("binary", lambda ctx: bytes(rng.randrange(256) for _ in range(1024)), refuse=True))
    tries.append(toml_try("is_json", lambda ctx: raw_json(base_job()), refuse=True))
    return tries


# ----------------------------------------------------------------------------------------------
# Category: xacro
# ----------------------------------------------------------------------------------------------
XACRO_HEAD = '<?xml version="1.0"?>\n<robot name="xa" xmlns:xacro="http://www.ros.org/wiki/xacro">\n'
XACRO_ARM = '''
  <link name="base_link"/>
  <link name="l1"/>
  <joint name="j1" type="revolute"><parent link="base_link"/><child link="l1"/>
    <origin xyz="0 0 ${h}"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
'''


def xacro_expr(expr, prop_extra=""):
    return XACRO_HEAD + f'  <xacro:property name="h" value="{expr}"/>\n' + prop_extra + XACRO_ARM + "</robot>\n"


def xacro_try(name, text_fn, refuse=False, extra=None, args=()):
    def build(ctx):
        data = text_fn(ctx)
        if data is not None:
            ctx.write("robot.urdf.xacro", data)
        if extra:
            extra(ctx)
        return ["--headless", "--robot", "robot.urdf.xacro", "--config", "none", "--srdf", "none", *args,
                "--goal-joints", "0.01", "--export", "t.json", "--output-dir", "out"]
    return Try("xacro", name, build, refuse=refuse)


def xacro_tries(rng):
    tries = [xacro_try("valid_base", lambda ctx: xacro_expr("${0.1}"))]
    exprs = [
        ("floordiv_minus1", "${(-9223372036854775807 - 1) // -1}", False),
        ("mod_minus1", "${(-9223372036854775807 - 1) % -1}", False),
        ("mul_overflow", "${1+33333333333333*33233335*1}", False),
        ("pow_huge", "${2**100000}", False),
        ("pow_tower", "${10**10**10}", True),
        ("pow_negative_big", "${(-2)**-1075}", False),
        ("int_literal_huge", "${" + "9" * 5000 + "}", False),
        ("div_zero", "${1/0}", True),
        ("floordiv_zero", "${1//0}", True),
        ("mod_zero", "${1%0}", True),
        ("float_div_zero", "${1.0/0.0}", True),
        ("parens_10k", "${" + "(" * 10000 + "1" + ")" * 10000 + "}", True),
        ("parens_1k", "${" + "(" * 1000 + "1" + ")" * 1000 + "}", False),
        ("unary_minus_30k", "${" + "-" * 30000 + "1}", True),
        ("sum_30k", "${" + "+".join(["1"] * 30000) + "}", False),
        ("not_chain_30k", "${" + "not " * 30000 + "1}", True),
        ("string_repeat_1e9", "${'ab'*10**9}", True),
        ("string_repeat_neg", "${'ab'*-1}", True),
        ("list_repeat", "${[1]*10**9}", True),
        ("nan_expr", "${float('nan')}", True),
        ("inf_expr", "${float('inf')}", True),
        ("import_os", "${__import__('os').system('touch PWNED')}", True),
        ("dunder_class", "${().__class__.__bases__[0].__subclasses__()}", True),
        ("eval_call", "${eval('1+1')}", True),
        ("lambda", "${(lambda: 1)()}", True),
        ("unknown_name", "${undefined_property}", True),
        ("unterminated", "${1+", True),
        ("nested_dollar", "${${1}}", True),
        ("esc_in_expr", "${'\x1b[31m'}", True),
        ("math_functions", "${sin(1e308)*cos(pi)+sqrt(-1)}", True),
        ("radians_huge", "${radians(1e308)}", False),
        ("big_shift", "${1 << 100000}", False),
        ("big_shift_neg", "${1 << -1}", True),
        ("comparison_chain", "${1 < 2 < 3 < 4}", False),
        ("ternary_deep", "${" + "1 if 1 else " * 5000 + "0}", True),
        ("dollar_paren_arg_missing", "$(arg nope)", True),
        ("dollar_find", "$(find no_such_package)/x", True),
        ("dollar_env", "$(env HOME)", True),
        ("dollar_optenv_long", "$(optenv NOPE " + "x" * 100000 + ")", True),
        ("dollar_eval", "$(eval 1+1)", False),
        ("dollar_nested_10k", "$(arg " * 2000 + "x" + ")" * 2000, True),
    ]
    for label, e, refuse in exprs:
        tries.append(xacro_try(f"expr/{label}", lambda ctx, e=e: xacro_expr(e), refuse=refuse))
    # properties and macros that blow up
    def doubling_props(n):
        s = '  <xacro:property name="p0" value="ab"/>\n'
        for i in range(1, n + 1):
            s += f'  <xacro:property name="p{i}" value="${{p{i - 1}}}${{p{i - 1}}}"/>\n'
        return xacro_expr("${0.1}", s + f'  <link name="big${{p{n}}}"/>\n')
    tries.append(xacro_try("property_doubling_40", lambda ctx: doubling_props(40), refuse=True))
    tries.append(xacro_try("property_doubling_lazy_40", lambda ctx: doubling_props(40).replace(f'  <link name="big${{p40}}"/>\n', ""), refuse=False))
    def doubling_macros(n):
        s = '  <xacro:macro name="m0" params="k"><link name="m_${k}"/></xacro:macro>\n'
        for i in range(1, n + 1):
            s += (f'  <xacro:macro name="m{i}" params="k"><xacro:m{i - 1} k="${{k}}a"/>'
                  f'<xacro:m{i - 1} k="${{k}}b"/></xacro:macro>\n')
        return xacro_expr("${0.1}", s + f'  <xacro:m{n} k="x"/>\n')
    tries.append(xacro_try("macro_doubling_30", lambda ctx: doubling_macros(30), refuse=True))
    tries.append(xacro_try("macro_doubling_10", lambda ctx: doubling_macros(10), refuse=False))
    tries.append(xacro_try("macro_self_recursion", lambda ctx: xacro_expr("${0.1}", '  <xacro:macro name="r" params="k"><xacro:r k="${k}x"/></xacro:macro>\n  <xacro:r k="a"/>\n'), refuse=True))
    tries.append(xacro_try("macro_self_recursion_const", lambda ctx: xacro_expr("${0.1}", '  <xacro:macro name="r" params=""><xacro:r/></xacro:macro>\n  <xacro:r/>\n'), refuse=True))
    tries.append(xacro_try("macro_mutual_recursion", lambda ctx: xacro_expr("${0.1}", '  <xacro:macro name="a" params=""><xacro:b/></xacro:macro><xacro:macro name="b" params=""><xacro:a/></xacro:macro>\n  <xacro:a/>\n'), refuse=True))
    tries.append(xacro_try("property_self_reference", lambda ctx: xacro_expr("${h}"), refuse=True))
    tries.append(xacro_try("property_cycle", lambda ctx: xacro_expr("${q}", '  <xacro:property name="q" value="${h}"/>\n'), refuse=True))
    tries.append(xacro_try("macro_10k_params", lambda ctx: xacro_expr("${0.1}", '  <xacro:macro name="w" params="' + " ".join(f"p{i}" for i in range(10000)) + '"/>\n  <xacro:w ' + " ".join(f'p{i}="1"' for i in range(10000)) + "/>\n")))
    tries.append(xacro_try("insert_block_unknown", lambda ctx: xacro_expr("${0.1}", '  <xacro:macro name="w" params="*b"><xacro:insert_block name="nope"/></xacro:macro><xacro:w><x/></xacro:w>\n'), refuse=True))
    tries.append(xacro_try("unknown_macro", lambda ctx: xacro_expr("${0.1}", "  <xacro:nope/>\n"), refuse=True))
    tries.append(xacro_try("if_nonbool", lambda ctx: xacro_expr("${0.1}", '  <xacro:if value="maybe"><link name="q"/></xacro:if>\n'), refuse=True))
    tries.append(xacro_try("deep_if_10k", lambda ctx: xacro_expr("${0.1}", '<xacro:if value="1">' * 10000 + '</xacro:if>' * 10000), refuse=True))
    tries.append(xacro_try("arg_huge_value", lambda ctx: xacro_expr("$(arg a)", '  <xacro:arg name="a" default="0.1"/>\n'), args=["--xacro-arg", "a:=" + "9" * 100000]))
    tries.append(xacro_try("arg_esc_value", lambda ctx: xacro_expr("$(arg a)", '  <xacro:arg name="a" default="0.1"/>\n'), args=["--xacro-arg", "a:=\x1b[31m"], refuse=True))
    tries.append(xacro_try("arg_bad_syntax", lambda ctx: xacro_expr("${0.1}"), args=["--xacro-arg", "no_separator"], refuse=True))
    # includes
    def inc(target):
        return xacro_expr("${0.1}", f'  <xacro:include filename="{target}"/>\n')
    tries.append(xacro_try("include_self", lambda ctx: inc("robot.urdf.xacro"), refuse=True))
    tries.append(xacro_try("include_loop_2", lambda ctx: inc("b.xacro"), refuse=True,
                           extra=lambda ctx: ctx.write("b.xacro", XACRO_HEAD + '<xacro:include filename="robot.urdf.xacro"/></robot>')))
    tries.append(xacro_try("include_fifo", lambda ctx: inc("f.xacro"), refuse=True, extra=lambda ctx: ctx.fifo("f.xacro")))
    tries.append(xacro_try("include_dev_zero", lambda ctx: inc("/dev/zero"), refuse=True))
    tries.append(xacro_try("include_dir", lambda ctx: inc("."), refuse=True))
    tries.append(xacro_try("include_missing", lambda ctx: inc("missing.xacro"), refuse=True))
    tries.append(xacro_try("include_etc_passwd", lambda ctx: inc("/etc/passwd"), refuse=True))
    tries.append(xacro_try("include_glob_many", lambda ctx: inc("*.xacro"), extra=lambda ctx: [ctx.write(f"g{i}.xacro", XACRO_HEAD + "</robot>") for i in range(200)]))
    def include_chain(ctx, n=2000):
        for i in range(n):
            ctx.write(f"c{i}.xacro", XACRO_HEAD + (f'<xacro:include filename="c{i + 1}.xacro"/>' if i + 1 < n else "") + "</robot>")
    tries.append(xacro_try("include_chain_2000", lambda ctx: inc("c0.xacro"), refuse=True, extra=include_chain))
    tries.append(xacro_try("include_doubling_20", lambda ctx: inc("d0.xacro"), refuse=True, extra=lambda ctx: [
        ctx.write(f"d{i}.xacro", XACRO_HEAD + (f'<xacro:include filename="d{i + 1}.xacro"/>' * 2 if i < 20 else "") + "</robot>") for i in range(21)]))
    tries.append(xacro_try("is_fifo", lambda ctx: (ctx.fifo("robot.urdf.xacro"), None)[1], refuse=True))
    tries.append(xacro_try("truncated", lambda ctx: xacro_expr("${0.1}")[:150], refuse=True))
    tries.append(xacro_try("no_namespace", lambda ctx: xacro_expr("${0.1}").replace(' xmlns:xacro="http://www.ros.org/wiki/xacro"', ""), refuse=True))
    return tries


# ----------------------------------------------------------------------------------------------
# Category: meshes (robot links)
# ----------------------------------------------------------------------------------------------
def mesh_urdf(fname):
    return TINY_ARM_URDF.replace('<collision><origin xyz="0 0 0.15"/><geometry><box size="0.08 0.08 0.3"/></geometry></collision>',
                                 f'<collision><origin xyz="0 0 0.15"/><geometry><mesh filename="meshes/{fname}"/></geometry></collision>')


def mesh_try(name, fname, data_fn, refuse=False):
    def build(ctx):
        ctx.write("robot.urdf", mesh_urdf(fname))
        data = data_fn(ctx)
        if data is not None:
            ctx.write("meshes/" + fname, data)
        return ["--headless", "--robot", "robot.urdf", "--config", "none", "--srdf", "none",
                "--goal-joints", "0.1 0.1 0.1", "--export", "t.json", "--output-dir", "out"]
    return Try("mesh", name, build, refuse=refuse)


def dae(body_nodes, geometry=True, count=24, values=None):
    pos = values if values is not None else "0 0 0 1 0 0 0 1 0 0 0 1 1 0 0 0 1 1 1 1 1 0 1 0 " * 1
    geom = f'''<library_geometries><geometry id="g"><mesh>
<source id="p"><float_array id="pa" count="{count}">{pos}</float_array>
<technique_common><accessor source="#pa" count="{count // 3}" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="2"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2 3 4 5</p></triangles>
</mesh></geometry></library_geometries>''' if geometry else ""
    return f'''<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<asset><unit meter="1"/><up_axis>Z_UP</up_axis></asset>
{geom}
<library_visual_scenes><visual_scene id="s">{body_nodes}</visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene></COLLADA>'''


def nested_nodes(n):
    return '<node id="n">' * n + '<instance_geometry url="#g"/>' + "</node>" * n


def mesh_tries(rng):
    tries = [mesh_try("valid_stl", "part.stl", lambda ctx: CUBE_STL)]
    # STL
    tries += [
        mesh_try("stl_truncated_header", "part.stl", lambda ctx: CUBE_STL[:40], refuse=True),
        mesh_try("stl_truncated_body", "part.stl", lambda ctx: CUBE_STL[:300]),
        mesh_try("stl_count_4e9", "part.stl", lambda ctx: CUBE_STL[:80] + struct.pack("<I", 0xFFFFFFFF) + CUBE_STL[84:]),
        mesh_try("stl_count_zero", "part.stl", lambda ctx: CUBE_STL[:80] + struct.pack("<I", 0), refuse=True),
        mesh_try("stl_nan", "part.stl", lambda ctx: stl_binary([((float("nan"),) * 3,) * 3] * 12)),
        mesh_try("stl_inf", "part.stl", lambda ctx: stl_binary([((float("inf"), 0, 0), (0, float("-inf"), 0), (0, 0, 1))] * 12)),
        mesh_try("stl_huge_coords", "part.stl", lambda ctx: stl_binary([((3e38, 0, 0), (0, 3e38, 0), (0, 0, 3e38))] * 12)),
        mesh_try("stl_degenerate", "part.stl", lambda ctx: stl_binary([((0, 0, 0),) * 3] * 12)),
        mesh_try("stl_ascii_garbage", "part.stl", lambda ctx: "solid x\nfacet normal 0 0 0\nouter loop\nvertex a b c\nendloop\nendfacet\nendsolid\n"),
        mesh_try("stl_ascii_unterminated", "part.stl", lambda ctx: "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"),
        mesh_try("stl_ascii_nan", "part.stl", lambda ctx: "solid x\nfacet normal 0 0 1\nouter loop\nvertex nan nan nan\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid x\n"),
        mesh_try("stl_200k_triangles", "part.stl", lambda ctx: stl_binary([((rng.random() * 0.1, rng.random() * 0.1, rng.random() * 0.1),) * 3 for _ in range(200000)])),
        mesh_try("stl_empty", "part.stl", lambda ctx: b"", refuse=True),
        mesh_try("stl_sparse_300MB", "part.stl", lambda ctx: (ctx.sparse("meshes/part.stl", 300 * MB, CUBE_STL[:84]), None)[1], refuse=True),
        mesh_try("stl_fifo", "part.stl", lambda ctx: (ctx.fifo("meshes/part.stl"), None)[1], refuse=True),
        mesh_try("stl_dev_zero", "part.stl", lambda ctx: (ctx.symlink("meshes/part.stl", "/dev/zero"), None)[1], refuse=True),
        mesh_try("stl_dir", "part.stl", lambda ctx: ((ctx.work / "meshes/part.stl").mkdir(parents=True), None)[1], refuse=True),
        mesh_try("stl_symlink_loop", "part.stl", lambda ctx: (ctx.symlink("meshes/part.stl", "part.stl"), None)[1], refuse=True),
    ]
    # OBJ
    tries += [
        mesh_try("obj_valid", "part.obj", lambda ctx: "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nv 0 0 0.1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n"),
        mesh_try("obj_index_out_of_range", "part.obj", lambda ctx: "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 999999\n"),
        mesh_try("obj_index_negative_huge", "part.obj", lambda ctx: "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -1 -2 -99999999\n"),
        mesh_try("obj_index_zero", "part.obj", lambda ctx: "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 0 0\n"),
        mesh_try("obj_index_overflow", "part.obj", lambda ctx: "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 99999999999999999999\n"),
        mesh_try("obj_nan", "part.obj", lambda ctx: "v nan nan nan\nv inf 0 0\nv 0 1 0\nf 1 2 3\n"),
        mesh_try("obj_no_faces", "part.obj", lambda ctx: "v 0 0 0\n" * 100, refuse=True),
        mesh_try("obj_face_1000_verts", "part.obj", lambda ctx: "".join(f"v {i} 0 {i % 7}\n" for i in range(1000)) + "f " + " ".join(str(i + 1) for i in range(1000)) + "\n"),
        mesh_try("obj_mtllib_fifo", "part.obj", lambda ctx: (ctx.fifo("meshes/m.mtl"), "mtllib m.mtl\nusemtl x\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")[1]),
        mesh_try("obj_mtllib_dotdot", "part.obj", lambda ctx: "mtllib ../../../../../../dev/zero\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"),
        mesh_try("obj_texture_dotdot", "part.obj", lambda ctx: (ctx.write("meshes/m.mtl", "newmtl x\nmap_Kd ../../../../../../dev/zero\n"), "mtllib m.mtl\nusemtl x\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/1 2/1 3/1\n")[1]),
        mesh_try("obj_long_line", "part.obj", lambda ctx: "v " + "1" * (5 * MB) + " 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"),
        mesh_try("obj_binary", "part.obj", lambda ctx: bytes(rng.randrange(256) for _ in range(8192))),
    ]
    # PLY
    ply_head = "ply\nformat {fmt} 1.0\nelement vertex {nv}\nproperty float x\nproperty float y\nproperty float z\nelement face {nf}\nproperty list uchar int vertex_indices\nend_header\n"
    tries += [
        mesh_try("ply_valid", "part.ply", lambda ctx: ply_head.format(fmt="ascii", nv=3, nf=1) + "0 0 0\n0.1 0 0\n0 0.1 0\n3 0 1 2\n"),
        mesh_try("ply_huge_vertex_count", "part.ply", lambda ctx: ply_head.format(fmt="ascii", nv=4000000000, nf=1) + "0 0 0\n"),
        mesh_try("ply_huge_binary_count", "part.ply", lambda ctx: ply_head.format(fmt="binary_little_endian", nv=2000000000, nf=2000000000).encode() + b"\0" * 64),
        mesh_try("ply_negative_count", "part.ply", lambda ctx: ply_head.format(fmt="ascii", nv=-5, nf=1) + "0 0 0\n"),
        mesh_try("ply_truncated", "part.ply", lambda ctx: ply_head.format(fmt="ascii", nv=3, nf=1) + "0 0 0\n0.1"),
        mesh_try("ply_bad_index", "part.ply", lambda ctx: ply_head.format(fmt="ascii", nv=3, nf=1) + "0 0 0\n0.1 0 0\n0 0.1 0\n3 0 1 99999\n"),
        mesh_try("ply_list_255", "part.ply", lambda ctx: ply_head.format(fmt="ascii", nv=3, nf=1) + "0 0 0\n0.1 0 0\n0 0.1 0\n255 0 1 2\n"),
        mesh_try("ply_nan", "part.ply", lambda ctx: ply_head.format(fmt="ascii", nv=3, nf=1) + "nan nan nan\n0.1 0 0\n0 0.1 0\n3 0 1 2\n"),
        mesh_try("ply_no_end_header", "part.ply", lambda ctx: "ply\nformat ascii 1.0\nelement vertex 3\n"),
        mesh_try("ply_binary_big_endian_junk", "part.ply", lambda ctx: ply_head.format(fmt="binary_big_endian", nv=3, nf=1).encode() + bytes(range(40))),
    ]
    # COLLADA
    tries += [
        mesh_try("dae_valid", "part.dae", lambda ctx: dae(nested_nodes(1))),
        mesh_try("dae_nested_999", "part.dae", lambda ctx: dae(nested_nodes(990))),
        mesh_try("dae_nested_1001", "part.dae", lambda ctx: dae(nested_nodes(1001)), refuse=True),
        mesh_try("dae_nested_3000", "part.dae", lambda ctx: dae(nested_nodes(3000)), refuse=True),
        mesh_try("dae_nested_10000", "part.dae", lambda ctx: dae(nested_nodes(10000)), refuse=True),
        mesh_try("dae_nested_extra_100k", "part.dae", lambda ctx: dae(nested_nodes(1)).replace("<asset>", "<asset>" + "<extra>" * 100000 + "</extra>" * 100000), refuse=True),
        mesh_try("dae_nested_in_comment", "part.dae", lambda ctx: dae(nested_nodes(1)).replace("<asset>", "<!--" + "<node>" * 20000 + "--><asset>")),
        mesh_try("dae_count_huge", "part.dae", lambda ctx: dae(nested_nodes(1), count=2000000000)),
        mesh_try("dae_count_negative", "part.dae", lambda ctx: dae(nested_nodes(1), count=-9)),
        mesh_try("dae_nan_values", "part.dae", lambda ctx: dae(nested_nodes(1), values="nan " * 24)),
        mesh_try("dae_missing_source", "part.dae", lambda ctx: dae(nested_nodes(1)).replace('source="#pa"', 'source="#nope"')),
        mesh_try("dae_instance_loop", "part.dae", lambda ctx: dae('<node id="a"><instance_node url="#b"/></node><node id="b"><instance_node url="#a"/></node>')),
        mesh_try("dae_instance_self", "part.dae", lambda ctx: dae('<node id="a"><instance_node url="#a"/><instance_geometry url="#g"/></node>')),
        mesh_try("dae_no_geometry", "part.dae", lambda ctx: dae("", geometry=False), refuse=True),
        mesh_try("dae_malformed", "part.dae", lambda ctx: dae(nested_nodes(1))[:400], refuse=True),
        mesh_try("dae_billion_laughs", "part.dae", lambda ctx: dae(nested_nodes(1)).replace('<?xml version="1.0"?>', '<?xml version="1.0"?><!DOCTYPE c [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;"><!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;"><!ENTITY f "&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;"><!ENTITY g "&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;">]>').replace("<up_axis>Z_UP</up_axis>", "<up_axis>&g;</up_axis>")),
        mesh_try("dae_texture_victim", "part.dae", lambda ctx: dae(nested_nodes(1)).replace("<library_geometries>", '<library_images><image id="i"><init_from>../../../../../../dev/zero</init_from></image></library_images><library_geometries>')),
        mesh_try("dae_unit_zero", "part.dae", lambda ctx: dae(nested_nodes(1)).replace('meter="1"', 'meter="0"')),
        mesh_try("dae_unit_nan", "part.dae", lambda ctx: dae(nested_nodes(1)).replace('meter="1"', 'meter="nan"')),
        mesh_try("dae_matrix_nan", "part.dae", lambda ctx: dae('<node id="n"><matrix>' + "nan " * 16 + '</matrix><instance_geometry url="#g"/></node>')),
        mesh_try("dae_wide_50k_nodes", "part.dae", lambda ctx: dae('<node><instance_geometry url="#g"/></node>' * 50000)),
        mesh_try("unknown_ext", "part.xyz", lambda ctx: CUBE_STL, refuse=True),
        mesh_try("stl_named_obj", "part.obj", lambda ctx: CUBE_STL),
        mesh_try("gltf_bogus_buffer", "part.gltf", lambda ctx: json.dumps({"asset": {"version": "2.0"}, "buffers": [{"uri": "/dev/zero", "byteLength": 4000000000}],
                                                                      "bufferViews": [{"buffer": 0, "byteLength": 4000000000}],
                                                                      "accessors": [{"bufferView": 0, "componentType": 5126, "count": 333333333, "type": "VEC3"}],
                                                                      "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
                                                                      "nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}], "scene": 0})),
    ]
    return tries


# ----------------------------------------------------------------------------------------------
# Category: MoveIt scene and request YAML (and .scene text, and --benchmark folders)
# ----------------------------------------------------------------------------------------------
MOVEIT_SCENE = '''name: adv
world:
  collision_objects:
    - id: box
      header: {frame_id: base_link}
      pose: {position: {x: 0, y: 0, z: 0}, orientation: {x: 0, y: 0, z: 0, w: 1}}
      primitives:
        - type: box
          dimensions: [0.1, 0.1, 0.1]
      primitive_poses:
        - position: {x: 0.5, y: 0.5, z: 0.05}
          orientation: {x: 0, y: 0, z: 0, w: 1}
'''
MOVEIT_REQUEST = '''start_state:
  joint_state:
    name: [joint1, joint2, joint3]
    position: [0, 0.5, -0.5]
group_name: arm
goal_constraints:
  - joint_constraints:
      - joint_name: joint1
        position: 0.1
      - joint_name: joint2
        position: 0.2
      - joint_name: joint3
        position: 0.3
'''
MOVEIT_DOT_SCENE = "adv\n* box\n1\nbox\n0.1 0.1 0.1\n0.5 0.5 0.05\n0 0 0 1\n0 0 0 0\n.\n"


def moveit_scene_try(name, text_fn, refuse=False, fname="scene.yaml"):
    return scene_try(name, text_fn, refuse=refuse, fname=fname, category="moveit")


def moveit_request_try(name, text_fn, refuse=False, where="goal"):
    def jt(ctx):
        ctx.write("req.yaml", text_fn(ctx))
        j = base_job()
        if where == "goal":
            j = set_path(j, ("steps", 1, "goal"), {"request": "req.yaml"})
        else:
            j = set_path(j, ("start",), {"request": "req.yaml"})
        return raw_json(j)
    return job_try(name, jt, refuse=refuse, category="moveit")


def yaml_bomb():
    lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    prev = "a"
    for c in "bcdefghij":
        lines.append(f"{c}: &{c} [" + ",".join([f"*{prev}"] * 10) + "]")
        prev = c
    return "\n".join(lines) + "\n"


def moveit_tries(rng):
    S, R = MOVEIT_SCENE, MOVEIT_REQUEST
    tries = [moveit_scene_try("scene_valid", lambda ctx: S), moveit_request_try("request_goal_valid", lambda ctx: R),
             moveit_request_try("request_start_valid", lambda ctx: R, where="start"),
             moveit_scene_try("dot_scene_valid", lambda ctx: MOVEIT_DOT_SCENE, fname="s.scene")]
    scene_edits = [
        ("type_cone", "type: box", "type: cone", True), ("type_number", "type: box", "type: 99", True),
        ("type_string", "type: box", "type: warp", True), ("dims_short", "[0.1, 0.1, 0.1]", "[0.1]", True),
        ("dims_nan", "[0.1, 0.1, 0.1]", "[.nan, .inf, -.inf]", True), ("dims_huge", "[0.1, 0.1, 0.1]", "[1e308, 1e308, 1e308]", False),
        ("dims_negative", "[0.1, 0.1, 0.1]", "[-1, -1, -1]", True), ("dims_strings", "[0.1, 0.1, 0.1]", "[a, b, c]", True),
        ("no_primitive_poses", "      primitive_poses:\n        - position: {x: 0.5, y: 0.5, z: 0.05}\n          orientation: {x: 0, y: 0, z: 0, w: 1}\n", "", True),
        ("quat_zero", "orientation: {x: 0, y: 0, z: 0, w: 1}\n", "orientation: {x: 0, y: 0, z: 0, w: 0}\n", False),
        ("id_esc", "id: box", 'id: "\\e[31mbox"', False), ("id_empty", "id: box", 'id: ""', True),
        ("tab_indent", "      primitives:", "\tprimitives:", True), ("unclosed_flow", "[0.1, 0.1, 0.1]", "[0.1, 0.1, 0.1", True),
        ("mesh_object", "      primitives:", "      meshes:\n        - triangles: [{vertex_indices: [0, 1, 2]}]\n          vertices: [{x: 0, y: 0, z: 0}]\n      primitives:", True),
        ("plane_object", "      primitives:", "      planes:\n        - coef: [0, 0, 1, 0]\n      primitives:", True),
        ("objects_not_list", "  collision_objects:\n", "  collision_objects: 5\n  x:\n", True),
        ("frame_unknown", "frame_id: base_link", "frame_id: nowhere", False),
    ]
    for label, a, b, refuse in scene_edits:
        def sub(ctx, a=a, b=b, label=label):
            assert a in S, label
            return S.replace(a, b, 1)
        tries.append(moveit_scene_try(f"scene/{label}", sub, refuse=refuse))
    tries.append(moveit_scene_try("scene/alias_bomb", lambda ctx: S + yaml_bomb(), refuse=False))
    tries.append(moveit_scene_try("scene/alias_bomb_in_dims", lambda ctx: yaml_bomb() + S.replace("[0.1, 0.1, 0.1]", "*j"), refuse=True))
    tries.append(moveit_scene_try("scene/deep_flow_100k", lambda ctx: "world: " + "[" * 100000 + "]" * 100000 + "\n", refuse=True))
    tries.append(moveit_scene_try("scene/deep_block_5k", lambda ctx: "world:\n" + "".join(" " * i + "a:\n" for i in range(1, 5000)), refuse=True))
    tries.append(moveit_scene_try("scene/anchor_cycle", lambda ctx: "world: &w\n  collision_objects: *w\n", refuse=True))
    tries.append(moveit_scene_try("scene/tags", lambda ctx: S.replace("type: box", "type: !!python/object/apply:os.system ['touch PWNED']"), refuse=True))
    tries.append(moveit_scene_try("scene/100k_objects", lambda ctx: "world:\n  collision_objects:\n" + "".join(
        f"    - id: o{i}\n      primitives: [{{type: 2, dimensions: [0.01]}}]\n      primitive_poses: [{{position: {{x: {3 + i % 100 * 0.03}, y: {i // 100 * 0.03}, z: 0}}, orientation: {{x: 0, y: 0, z: 0, w: 1}}}}]\n"
        for i in range(100001)), refuse=True))
    tries.append(moveit_scene_try("scene/fifo", lambda ctx: (ctx.fifo("scene.yaml"), None)[1], refuse=True))
    tries.append(moveit_scene_try("scene/empty", lambda ctx: "", refuse=False))
    tries.append(moveit_scene_try("scene/binary", lambda ctx: bytes(rng.randrange(256) for _ in range(2048)), refuse=True))
    for label, t, refuse in [("count_huge", "adv\n* box\n99999999999\nbox\n0.1 0.1 0.1\n", True),
                             ("truncated", "adv\n* box\n1\nbox\n0.1", True),
                             ("nan", MOVEIT_DOT_SCENE.replace("0.1 0.1 0.1", "nan nan nan"), True),
                             ("unknown_shape", MOVEIT_DOT_SCENE.replace("\nbox\n", "\ncone\n"), True),
                             ("mesh_count_huge", "adv\n* m\n1\nmesh\n4000000000 4000000000\n", True),
                             ("no_end", MOVEIT_DOT_SCENE[:-2], False),
                             ("name_esc", MOVEIT_DOT_SCENE.replace("* box", "* b\x1bx"), False)]:
        tries.append(moveit_scene_try(f"dot_scene/{label}", lambda ctx, t=t: t, refuse=refuse, fname="s.scene"))
    req_edits = [
        ("unknown_joint", "joint_name: joint1", "joint_name: nope", True),
        ("position_nan", "position: 0.1", "position: .nan", True),
        ("position_huge", "position: 0.1", "position: 1e308", True),
        ("position_string", "position: 0.1", "position: far", True),
        ("no_constraints", "goal_constraints:", "goal_constraints: []\nx:", True),
        ("duplicate_joint", "joint_name: joint2", "joint_name: joint1", True),
        ("start_names_longer", "name: [joint1, joint2, joint3]", "name: [joint1, joint2, joint3, joint4]", True),
        ("start_esc", "name: [joint1, joint2, joint3]", 'name: [joint1, "\\e[31m", joint3]', True),
    ]
    for label, a, b, refuse in req_edits:
        def sub(ctx, a=a, b=b, label=label):
            assert a in R, label
            return R.replace(a, b, 1)
        tries.append(moveit_request_try(f"request/{label}", sub, refuse=refuse, where="start" if label.startswith("start") else "goal"))
    tries.append(moveit_request_try("request/alias_bomb", lambda ctx: yaml_bomb() + R))
    tries.append(moveit_request_try("request/deep_flow", lambda ctx: "goal_constraints: " + "[" * 100000 + "]" * 100000 + "\n", refuse=True))
    def req_fifo(ctx):
        ctx.fifo("req2.yaml")
        return raw_json(set_path(base_job(), ("steps", 1, "goal"), {"request": "req2.yaml"}))
    tries.append(job_try("request/fifo", req_fifo, refuse=True, category="moveit"))
    tries.append(job_try("request/dev_zero", lambda ctx: raw_json(set_path(base_job(), ("start",), {"request": "/dev/zero"})), refuse=True, category="moveit"))
    # --benchmark folders
    def bench(name, files, refuse=False):
        def build(ctx):
            ctx.write("robot.urdf", TINY_ARM_URDF)
            ctx.write("kinetic.toml", TINY_ARM_TOML)
            for rel, data in files(ctx).items():
                if data is None:
                    ctx.fifo("problems/" + rel)
                else:
                    ctx.write("problems/" + rel, data)
            return ["--headless", "--benchmark", "problems", "--robot", "robot.urdf", "--srdf", "none",
                    "--timeout", "0.5", "--output-dir", "out"]
        return Try("moveit", f"benchmark/{name}", build, refuse=refuse)
    tries.append(bench("valid", lambda ctx: {"s/scene0001.yaml": S, "s/request0001.yaml": R}))
    tries.append(bench("request_fifo", lambda ctx: {"s/scene0001.yaml": S, "s/request0001.yaml": None}, refuse=True))
    tries.append(bench("scene_garbage", lambda ctx: {"s/scene0001.yaml": "[[[", "s/request0001.yaml": R}, refuse=True))
    tries.append(bench("request_unknown_joint", lambda ctx: {"s/scene0001.yaml": S, "s/request0001.yaml": R.replace("joint_name: joint1", "joint_name: nope")}))
    tries.append(bench("10k_pairs", lambda ctx: {f"s/{k}{i:04d}.yaml": (S if k == "scene" else R) for i in range(1, 2001) for k in ("scene", "request")}))
    tries.append(bench("name_esc", lambda ctx: {"s\x1b[31m/scene0001.yaml": S, "s\x1b[31m/request0001.yaml": R}))
    return tries


# ----------------------------------------------------------------------------------------------
# Category: trajectories (inside sessions, and given where a job or scene is expected)
# ----------------------------------------------------------------------------------------------
def session_try(name, fn, refuse=False, category="session", headless=False, fname="work.kinetic-session"):
    def build(ctx):
        ctx.copy_robot()
        data = fn(ctx)
        if data is not None:
            ctx.write(fname, data)
        if headless:
            return ["--headless", fname]
        return [fname, "--quit-after", "1500"]
    return Try(category, name, build, refuse=refuse, studio=not headless)


def trajectory_tries(rng):
    tries = []
    ses = base_session()
    tj = trajectory_json()
    base_path = ("trajectories", 0, "trajectory")
    for p in [p for p in json_paths(tj) if p]:
        if rng.random() < 0.3:
            v = rng.choice(HOSTILE)
            tag = value_tag(v)
            tries.append(session_try(f"in_session/type/{pname(p)}={tag}", lambda ctx, p=p, v=v: raw_json(set_path(ses, base_path + p, v)), category="trajectory"))
    def big(n):
        return lambda ctx: raw_json(set_path(ses, base_path, trajectory_json(n)))
    tries.append(session_try("in_session/samples_300k", big(300000), category="trajectory"))
    def mutate(f):
        def g(ctx):
            t = trajectory_json()
            f(t)
            return raw_json(set_path(ses, base_path, t))
        return g
    for label, f in [("time_backwards", lambda t: t["samples"][2].update(t=-1.0)),
                     ("time_nan", lambda t: t["samples"][2].update(t="__RAW__NaN")),
                     ("time_huge", lambda t: t["samples"][-1].update(t=1e308)),
                     ("three_same_time", lambda t: [s.update(t=0.0) for s in t["samples"][:3]]),
                     ("q_short", lambda t: t["samples"][1].update(q=[0.1])),
                     ("q_long", lambda t: t["samples"][1].update(q=[0.1] * 100000)),
                     ("no_samples", lambda t: t.update(samples=[])),
                     ("one_sample", lambda t: t.update(samples=t["samples"][:1])),
                     ("unknown_joint", lambda t: t.update(joint_names=["nope", "joint2", "joint3"])),
                     ("duplicate_joint", lambda t: t.update(joint_names=["joint1", "joint1", "joint3"])),
                     ("esc_joint", lambda t: t.update(joint_names=["\u001b[31mj", "joint2", "joint3"])),
                     ("version_0", lambda t: t.update(format_version=0)),
                     ("version_999", lambda t: t.update(format_version=999)),
                     ("units_wrong", lambda t: t.update(units={"time": "ms", "position": ["deg"] * 3})),
                     ("waypoints_unsorted", lambda t: t.update(waypoint_times=[5, 1, 3]))]:
        tries.append(session_try(f"in_session/{label}", mutate(f), category="trajectory"))
    # trajectory files where a job / scene is expected
    csv = ("# kinetic-trajectory\n# format_version: 1\n# robot: tiny_arm\n# units: time=s; position=rad,rad,rad\n"
           "t,q:joint1,q:joint2,q:joint3,qd:joint1,qd:joint2,qd:joint3,qdd:joint1,qdd:joint2,qdd:joint3\n0,0,0,0,0,0,0,0,0,0\n")
    tries.append(job_try("as_job/json", lambda ctx: raw_json(tj), refuse=True, category="trajectory"))
    tries.append(Try("trajectory", "as_job/csv", lambda ctx: (ctx.write("t.csv", csv), ["--headless", "t.csv"])[1], refuse=True))
    tries.append(Try("trajectory", "as_job/csv_huge_row", lambda ctx: (ctx.write("t.csv", csv + ",".join(["1e308"] * 200000) + "\n"), ["--headless", "t.csv"])[1], refuse=True))
    tries.append(scene_try("as_scene/csv", lambda ctx: csv, refuse=True, fname="t.csv", category="trajectory"))
    tries.append(Try("trajectory", "as_session/json", lambda ctx: (ctx.write("t.json", raw_json(tj)), ["t.json", "--quit-after", "1500"])[1], studio=True))
    return tries


# ----------------------------------------------------------------------------------------------
# Category: session files on the command line (the studio, offscreen, --quit-after)
# ----------------------------------------------------------------------------------------------
def session_tries(rng):
    ses = base_session()
    tries = [session_try("valid_base", lambda ctx: raw_json(ses))]
    paths = [p for p in json_paths(ses) if p and not (len(p) > 2 and p[:3] == ("trajectories", 0, "trajectory"))]
    for p in rng.sample(paths, min(12, len(paths))):
        v = rng.choice(HOSTILE)
        tag = value_tag(v)
        tries.append(session_try(f"type/{pname(p)}={tag}", lambda ctx, p=p, v=v: raw_json(set_path(ses, p, v))))
    def ref(target_fn, label, refuse=True, extra=None):
        def f(ctx):
            if extra:
                extra(ctx)
            return raw_json(set_path(ses, ("robot", "reference"), target_fn(ctx)))
        tries.append(session_try(f"robot_reference/{label}", f, refuse=refuse))
    ref(lambda ctx: "r.urdf", "fifo", extra=lambda ctx: ctx.fifo("r.urdf"))
    ref(lambda ctx: "/dev/zero", "dev_zero")
    ref(lambda ctx: "missing.urdf", "missing")
    ref(lambda ctx: ".", "dir")
    ref(lambda ctx: "big.urdf", "chain_2000_collision", extra=lambda ctx: ctx.write("big.urdf", chain_urdf(2000, link_geom='<collision><geometry><sphere radius="0.004"/></geometry></collision>')))
    ref(lambda ctx: "c65.urdf", "chain_65", extra=lambda ctx: ctx.write("c65.urdf", chain_urdf(65)), refuse=False)
    ref(lambda ctx: "x.urdf.xacro", "xacro_floordiv", extra=lambda ctx: ctx.write("x.urdf.xacro", xacro_expr("${(-9223372036854775807 - 1) // -1}")), refuse=False)
    ref(lambda ctx: "x.urdf.xacro", "xacro_parens_10k", extra=lambda ctx: ctx.write("x.urdf.xacro", xacro_expr("${" + "(" * 10000 + "1" + ")" * 10000 + "}")))
    ref(lambda ctx: "x.urdf.xacro", "xacro_macro_doubling", extra=lambda ctx: ctx.write("x.urdf.xacro", xacro_expr("${0.1}", "".join(
        [f'<xacro:macro name="m{i}" params=""><xacro:m{i - 1}/><xacro:m{i - 1}/></xacro:macro>' if i else '<xacro:macro name="m0" params=""><link name="q"/></xacro:macro>' for i in range(31)]) + "<xacro:m30/>")))
    ref(lambda ctx: "m.urdf", "mesh_dae_10000_deep", extra=lambda ctx: (ctx.write("m.urdf", mesh_urdf("part.dae")), ctx.write("meshes/part.dae", dae(nested_nodes(10000)))))
    ref(lambda ctx: "ur\u001b[31m5e", "esc_name")
    ref(lambda ctx: "r" * (10 * MB), "name_10MB")
    for label, fn, refuse in [
        ("version_0", lambda ctx: raw_json(set_path(ses, ("version",), 0)), True),
        ("version_999", lambda ctx: raw_json(set_path(ses, ("version",), 999)), True),
        ("is_job", lambda ctx: raw_json(base_job()), True),
        ("truncated", lambda ctx: raw_json(ses)[:200], True),
        ("empty", lambda ctx: "", True),
        ("deep_100k", lambda ctx: deep_json(100000), True),
        ("deep_in_camera", lambda ctx: raw_json(set_path(ses, ("camera",), "__RAW__" + deep_json(50000, "obj"))), True),
        ("huge_trajectory_list", lambda ctx: raw_json(set_path(ses, ("trajectories",), [{"name": f"t{i}", "trajectory": trajectory_json(3)} for i in range(5000)])), False),
        ("scene_40k", lambda ctx: raw_json(set_path(ses, ("scene", "obstacles"), [
            {"name": f"o{i}", "shape": {"type": "sphere", "radius": 0.005}, "pose": {"position": [3 + (i % 200) * 0.02, i // 200 * 0.02, 0], "orientation": [0, 0, 0, 1]}}
            for i in range(40000)])), False),
        ("scene_changes_garbage", lambda ctx: raw_json(set_path(ses, ("trajectories", 0, "scene_changes"), [{"time": "__RAW__NaN", "scene": {"format": "kinetic-scene"}}])), True),
        ("stored_states_nan", lambda ctx: raw_json(set_path(ses, ("stored_states", 0, "joints", "joint1"), "__RAW__NaN")), False),
        ("stored_state_name_esc", lambda ctx: raw_json(set_path(ses, ("stored_states", 0, "name"), "\u001b]0;title\u0007")), False),
        ("settings_out_of_range", lambda ctx: raw_json(set_path(ses, ("settings", "timing", "velocity_scaling"), 1e9)), False),
        ("camera_nan", lambda ctx: raw_json(set_path(ses, ("camera", "distance"), "__RAW__NaN")), False),
        ("camera_huge", lambda ctx: raw_json(set_path(ses, ("camera", "distance"), 1e308)), False),
        ("goal_tcp_nan", lambda ctx: raw_json(set_path(ses, ("goal", "tcp_pose", "position"), ["__RAW__NaN", 0, 0])), True),
        ("unknown_keys_10k", lambda ctx: raw_json(dict(ses, **{f"k{i}": i for i in range(10000)})), False),
    ]:
        tries.append(session_try(label, fn, refuse=refuse))
    tries.append(session_try("is_fifo", lambda ctx: (ctx.fifo("work.kinetic-session"), None)[1], refuse=True))
    tries.append(session_try("is_dev_zero", lambda ctx: (ctx.symlink("work.kinetic-session", "/dev/zero"), None)[1], refuse=True))
    tries.append(session_try("sparse_70MB", lambda ctx: (ctx.sparse("work.kinetic-session", 70 * MB, b"{"), None)[1], refuse=True))
    tries.append(session_try("headless_as_job", lambda ctx: raw_json(ses), refuse=True, headless=True))
    tries.append(session_try("headless_fifo", lambda ctx: (ctx.fifo("work.kinetic-session"), None)[1], refuse=True, headless=True))
    tries.append(session_try("headless_urdf_positional_fifo", lambda ctx: (ctx.fifo("x.urdf"), None)[1], refuse=True, headless=True, fname="x.urdf"))
    return tries


CATEGORIES = [("job", job_tries), ("scene", scene_tries), ("urdf", urdf_tries), ("srdf", srdf_tries),
              ("toml", toml_tries), ("xacro", xacro_tries), ("mesh", mesh_tries), ("moveit", moveit_tries),
              ("trajectory", trajectory_tries), ("session", session_tries)]


# ----------------------------------------------------------------------------------------------
# Snapshots: every file under a folder, without following links or opening special files
# ----------------------------------------------------------------------------------------------
def snapshot(top):
    snap = {}
    def walk(d):
        try:
            entries = list(os.scandir(d))
        except OSError:
            return
        for e in entries:
            try:
                st = e.stat(follow_symlinks=False)
            except OSError:
                continue
            rel = os.path.relpath(e.path, top)
            if stat.S_ISLNK(st.st_mode):
                snap[rel] = ("link", os.readlink(e.path))
            elif stat.S_ISDIR(st.st_mode):
                snap[rel] = ("dir",)
                walk(e.path)
            elif stat.S_ISREG(st.st_mode):
                digest = None
                if st.st_size <= 4 * MB:
                    try:
                        with open(e.path, "rb") as f:
                            digest = hashlib.sha1(f.read()).hexdigest()
                    except OSError:
                        digest = "unreadable"
                snap[rel] = ("file", st.st_size, st.st_mtime_ns, st.st_ino, digest, stat.S_IMODE(st.st_mode))
            else:
                snap[rel] = ("special", stat.S_IFMT(st.st_mode), st.st_ino)
    walk(top)
    return snap


def diff(before, after):
    changes = []
    for k in sorted(set(before) | set(after)):
        b, a = before.get(k), after.get(k)
        if b == a:
            continue
        if b is not None and a is not None and b[0] == a[0] == "dir":
            continue
        changes.append((k, "created" if b is None else "removed" if a is None else "modified"))
    return changes


def under(rel, folder):
    folder = os.path.normpath(folder)
    return folder == "." or rel == folder or rel.startswith(folder + os.sep)


TEMP_NAME = re.compile(r"^\..*(\.partial|\.tmp-|\.tmp$)")


# ----------------------------------------------------------------------------------------------
# Running one try
# ----------------------------------------------------------------------------------------------
def run_try(t, args, tmp, victim):
    root = tmp / "try"
    if root.exists():
        make_writable(root)
        shutil.rmtree(root)
    ctx = Ctx(root, victim)
    ctx.work.mkdir(parents=True)
    ctx.sentinel.mkdir()
    (ctx.sentinel / "x.json").write_text("sentinel\n")
    home = root / "home"
    (home / "run").mkdir(parents=True)
    os.chmod(home / "run", 0o700)
    (home / "tmp").mkdir()
    argv = t.build(ctx)
    cmd = [args.binary] + argv
    before = snapshot(tmp)
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "LD_LIBRARY_PATH")}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(home), XDG_RUNTIME_DIR=str(home / "run"),
               XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share"),
               XDG_CACHE_HOME=str(home / ".cache"), TMPDIR=str(home / "tmp"))
    mem = args.memory_gb << 30

    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    start = time.monotonic()
    timed_out = False
    with open(root / "stdout", "wb") as so, open(root / "stderr", "wb") as se:
        proc = subprocess.Popen(cmd, cwd=ctx.work, env=env, stdin=subprocess.DEVNULL, stdout=so, stderr=se,
                                preexec_fn=limits, start_new_session=True)
        try:
            proc.wait(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 10)):
                try:
                    os.killpg(proc.pid, sig)
                except ProcessLookupError:
                    pass
                try:
                    proc.wait(timeout=wait)
                    break
                except subprocess.TimeoutExpired:
                    continue
    wall = time.monotonic() - start
    # a leftover child of the process group would keep writing: end it before looking
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    after = snapshot(tmp)
    stdout = (root / "stdout").read_bytes()
    stderr = (root / "stderr").read_bytes()
    rc = proc.returncode

    # unsafe writes: anything changed outside the output folder (or an input in it), any temporary left
    out_rel = os.path.relpath(ctx.out, tmp)
    root_rel = os.path.relpath(root, tmp)
    unsafe = []
    for rel, what in diff(before, after):
        if rel in (os.path.join(root_rel, "stdout"), os.path.join(root_rel, "stderr")):
            continue
        if t.studio and under(rel, os.path.join(root_rel, "home")):
            continue
        if not t.studio and under(rel, os.path.join(root_rel, "home")) and what == "created" and \
                under(rel, os.path.join(root_rel, "home", ".cache")):
            continue
        in_out = under(rel, out_rel)
        was_input = rel in before and before[rel][0] != "dir" and \
            os.path.relpath(os.path.join(tmp, rel), ctx.work) not in ctx.replaceable
        if in_out and not was_input:
            if what != "removed" and TEMP_NAME.match(os.path.basename(rel)):
                unsafe.append(f"{rel}: temporary left behind")
            continue
        unsafe.append(f"{rel}: {what}")
    # the output folder may be a symlink to elsewhere (a try): the real files never show up above,
    # but the victim folder is in the snapshot too, so a write through the link is caught there.

    text = stderr.decode("utf-8", "replace")
    crash_marks = [p for p in CRASH_PATTERNS if p in text]
    # ESC, or the one-character CSI (U+009B, C2 9B in UTF-8), printed raw
    esc = any(c in stream for c in (b"\x1b", b"\xc2\x9b") for stream in (stdout, stderr))
    codes = STUDIO_CODES if t.studio else HEADLESS_CODES
    if timed_out:
        outcome = "hang"
    elif rc < 0 or rc >= 128 or crash_marks:
        outcome = "crash"
    elif rc == 0:
        outcome = "accepted"
    elif rc in codes and text.strip() and "unexpected error" not in text:
        outcome = "clean"
    else:
        outcome = "bad_error"
    return dict(category=t.category, name=t.name, outcome=outcome, rc=rc, wall=wall, unsafe=unsafe, esc=esc,
                wrongly_accepted=(outcome == "accepted" and t.refuse), crash_marks=crash_marks, cmd=cmd,
                stderr_tail=text[-3000:], stdout_tail=stdout.decode("utf-8", "replace")[-1500:], root=root, ctx=ctx)


def make_writable(path):
    for dirpath, dirnames, _ in os.walk(path):
        for d in dirnames:
            p = os.path.join(dirpath, d)
            if not os.path.islink(p):
                try:
                    os.chmod(p, 0o700)
                except OSError:
                    pass


def keep_artifact(res, artifacts, index):
    safe = re.sub(r"[^A-Za-z0-9_.=-]+", "_", f"{index:04d}_{res['category']}_{res['name']}")[:150]
    dest = artifacts / safe
    dest.mkdir(parents=True, exist_ok=True)
    inputs = dest / "work"
    skipped = []
    work = res["ctx"].work
    for dirpath, dirnames, filenames in os.walk(work, followlinks=False):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            src = Path(dirpath) / name
            rel = src.relative_to(work)
            dst = inputs / rel
            dst.parent.mkdir(parents=True, exist_ok=True)
            st = os.lstat(src)
            if stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(src), dst)
            elif stat.S_ISREG(st.st_mode) and st.st_size <= 8 * MB:
                shutil.copyfile(src, dst)
            else:
                skipped.append(f"{rel} ({'fifo' if stat.S_ISFIFO(st.st_mode) else str(st.st_size) + ' bytes'})")
    report = {k: res[k] for k in ("category", "name", "outcome", "rc", "wall", "unsafe", "esc", "wrongly_accepted", "crash_marks")}
    report["command"] = " ".join(shlex_quote(a) for a in res["cmd"])
    report["not_copied"] = skipped
    report["regenerate"] = f"{Path(__file__).name} --binary BINARY --only '{res['category']}/{res['name']}' --keep"
    (dest / "result.json").write_text(json.dumps(report, indent=1, ensure_ascii=True) + "\n")
    (dest / "stderr.txt").write_text(res["stderr_tail"])
    (dest / "stdout.txt").write_text(res["stdout_tail"])


def shlex_quote(s):
    import shlex
    s = s if len(s) < 300 else s[:100] + f"...({len(s)} chars)"
    return shlex.quote(s)


# ----------------------------------------------------------------------------------------------
# Table
# ----------------------------------------------------------------------------------------------
COLS = [("tries", None), ("clean errors", "clean"), ("accepted", "accepted"), ("crashes", "crash"), ("hangs", "hang"),
        ("unsafe writes", None), ("bad errors", "bad_error"), ("raw ESC", None), ("accepted, should refuse", None)]


def table(results, categories):
    rows = []
    for cat in categories + ["total"]:
        rs = [r for r in results if cat == "total" or r["category"] == cat]
        if not rs and cat != "total":
            continue
        row = [cat]
        for title, key in COLS:
            if title == "tries":
                row.append(len(rs))
            elif title == "unsafe writes":
                row.append(sum(1 for r in rs if r["unsafe"]))
            elif title == "raw ESC":
                row.append(sum(1 for r in rs if r["esc"]))
            elif title.startswith("accepted, should"):
                row.append(sum(1 for r in rs if r["wrongly_accepted"]))
            else:
                row.append(sum(1 for r in rs if r["outcome"] == key))
        rows.append(row)
    head = ["category"] + [c for c, _ in COLS]
    widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda cells: "| " + " | ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(cells, widths))) + " |"
    out = [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(r) for r in rows]
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True, help="kinetic-studio to run")
    ap.add_argument("--artifacts", default=None, help="folder for the details of every non-clean try (default: a kinetic-adv-artifacts-* folder in the temporary folder)")
    ap.add_argument("--tmp", default=None, help="parent of the temporary folder (default: the system's)")
    ap.add_argument("--quick", action="store_true", help="a representative subset (~60 tries)")
    ap.add_argument("--only", action="append", default=[], help="run tries whose CATEGORY/NAME starts with this (repeatable)")
    ap.add_argument("--category", action="append", default=[], help="run only this category (repeatable)")
    ap.add_argument("--list", action="store_true", help="list the tries and exit")
    ap.add_argument("--timeout", type=float, default=None, help="wall-clock limit per try, s (default 60; 30 with --quick)")
    ap.add_argument("--memory-gb", type=int, default=4, help="address-space limit per try (GiB)")
    ap.add_argument("--seed", type=int, default=41, help="seed of the sampled mutations")
    ap.add_argument("--jobs", type=int, default=1, help="tries at once (only 1 is supported: tries are timed)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder (the last try's inputs)")
    ap.add_argument("--verbose", "-v", action="store_true", help="print every try")
    args = ap.parse_args()
    if args.jobs != 1:
        ap.error("--jobs: only 1 is supported")
    args.binary = str(Path(args.binary).resolve())
    if not os.access(args.binary, os.X_OK):
        ap.error(f"--binary {args.binary}: not an executable")
    if args.timeout is None:
        args.timeout = 30.0 if args.quick else 60.0

    rng = random.Random(args.seed)
    tries = []
    for cat, gen in CATEGORIES:
        tries += gen(random.Random(f"{args.seed}-{cat}"))
    if args.category:
        tries = [t for t in tries if t.category in args.category]
    if args.only:
        tries = [t for t in tries if any(f"{t.category}/{t.name}".startswith(o) for o in args.only)]
    if args.quick:
        picked = []
        for cat, _ in CATEGORIES:
            ts = [t for t in tries if t.category == cat]
            n = 4 if cat in ("session", "trajectory") else 7
            step = max(1, len(ts) // n)
            picked += ts[::step][:n]
        tries = picked
    if args.list:
        for t in tries:
            print(f"{t.category}/{t.name}")
        print(f"{len(tries)} tries")
        return 0

    tmp = Path(tempfile.mkdtemp(prefix="kinetic-adv-", dir=args.tmp)).resolve()
    artifacts = Path(args.artifacts).resolve() if args.artifacts else Path(tempfile.mkdtemp(prefix="kinetic-adv-artifacts-", dir=args.tmp))
    artifacts.mkdir(parents=True, exist_ok=True)
    victim = tmp / "victim"
    (victim / "sub").mkdir(parents=True)
    (victim / "x.json").write_text("victim: must never change\n")
    print(f"adversarial table: {len(tries)} tries, binary {args.binary}, limit {args.timeout:g} s and {args.memory_gb} GiB each, "
          f"inputs under {tmp}", flush=True)
    t0 = time.monotonic()
    results = []
    try:
        for i, t in enumerate(tries, 1):
            res = run_try(t, args, tmp, victim)
            results.append(res)
            bad = res["outcome"] not in ("clean", "accepted") or res["unsafe"] or res["esc"] or res["wrongly_accepted"]
            if bad:
                keep_artifact(res, artifacts, i)
            if args.verbose or bad:
                flags = (" UNSAFE: " + "; ".join(res["unsafe"][:3]) if res["unsafe"] else "") + (" ESC" if res["esc"] else "") + \
                        (" (should have been refused)" if res["wrongly_accepted"] else "")
                last = res["stderr_tail"].strip().splitlines()[-1][:160] if res["stderr_tail"].strip() else ""
                print(f"[{i}/{len(tries)}] {t.category}/{t.name}: {res['outcome']} rc={res['rc']} {res['wall']:.1f}s{flags} | {last!r}", flush=True)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            make_writable(tmp)
            shutil.rmtree(tmp, ignore_errors=True)
    elapsed = time.monotonic() - t0
    cats = [c for c, _ in CATEGORIES]
    print()
    print(table(results, cats))
    print(f"\n{len(results)} tries in {elapsed / 60:.1f} min ({elapsed:.0f} s); details of non-clean tries in {artifacts}")
    slow = sorted(results, key=lambda r: -r["wall"])[:5]
    print("slowest: " + ", ".join(f"{r['category']}/{r['name']} {r['wall']:.1f}s" for r in slow))
    failed = sum(1 for r in results if r["outcome"] in ("crash", "hang") or r["unsafe"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
