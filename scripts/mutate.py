"""Seeded single-point mutants of domain/, each run against its game's
non-slow tests: how many the tests catch.

    .venv/bin/python scripts/mutate.py --seed 20261201 --count 40 \\
        silver_dagger/rules.py silver_dagger/view.py smile_life/rules.py smile_life/view.py

Each mutant changes one place of one file (paths under
domain/cardroom/domain/): a comparison flipped (== and !=, < and >=, in and
not in, ...), ``and`` and ``or`` swapped, an integer constant moved by one,
an ``if``/``while``/conditional expression's test negated, or a statement
replaced by ``pass``. Mutants are drawn round-robin over the files, so a
small file gets as many as a large one; the same seed draws the same ones.

Each runs in a scratch copy of the checkout against ``tests/contract`` for
its game and ``tests/<game>/`` (``-k "<kind> or <package>"``), non-slow,
stopping at the first failure, with a wall-clock timeout per mutant. Outcomes: *caught* (a
test failed), *survived* (every test passed), *timeout* (the tests were
killed: a hang, which is reported apart since it is no honest catch) and
*broken* (the mutant does not even import; counted as caught). The run stops
drawing once ``--budget`` seconds are spent. Survivors are printed with the
mutated line, for a verdict: equivalent, or a test to add.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = Path("domain/cardroom/domain")
COPIED = ("domain", "protos", "clients", "service", "tests", "docs", "pyproject.toml")

FLIPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Site:
    """One place a mutant can change: the n-th node of the walk, and how."""

    file: str
    index: int  # position of the node in ast.walk order
    how: str  # "compare:<i>", "boolop", "const:+1", "const:-1", "negate", "remove"
    line: int


def _sites(file: str, tree: ast.AST) -> list[Site]:
    found: list[Site] = []
    for index, node in enumerate(ast.walk(tree)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare):
            found += [
                Site(file, index, f"compare:{i}", line)
                for i, op in enumerate(node.ops)
                if type(op) in FLIPS
            ]
        elif isinstance(node, ast.BoolOp):
            found.append(Site(file, index, "boolop", line))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int)
            and not isinstance(node.value, bool)
        ):
            found += [Site(file, index, "const:+1", line), Site(file, index, "const:-1", line)]
        elif isinstance(node, (ast.If, ast.While, ast.IfExp)):
            found.append(Site(file, index, "negate", line))
        if isinstance(node, (ast.FunctionDef, ast.If, ast.For, ast.While, ast.With, ast.Try)):
            for stmt in node.body:
                if not isinstance(stmt, (ast.Pass, ast.FunctionDef, ast.ClassDef)) and not (
                    isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
                ):
                    found.append(Site(file, _index_of(tree, stmt), "remove", stmt.lineno))
    return found


def _index_of(tree: ast.AST, target: ast.AST) -> int:
    for index, node in enumerate(ast.walk(tree)):
        if node is target:
            return index
    raise ValueError("not in the tree")


class _Mutate(ast.NodeTransformer):
    def __init__(self, tree: ast.AST, site: Site) -> None:
        self.target = list(ast.walk(tree))[site.index]
        self.how = site.how

    def visit(self, node: ast.AST) -> ast.AST | None:
        if node is not self.target:
            return super().visit(node)
        how = self.how
        if how.startswith("compare:"):
            assert isinstance(node, ast.Compare)
            i = int(how.split(":")[1])
            node.ops[i] = FLIPS[type(node.ops[i])]()
        elif how == "boolop":
            assert isinstance(node, ast.BoolOp)
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        elif how.startswith("const:"):
            assert isinstance(node, ast.Constant) and isinstance(node.value, int)
            node.value = node.value + (1 if how.endswith("+1") else -1)
        elif how == "negate":
            assert isinstance(node, (ast.If, ast.While, ast.IfExp))
            node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
            return node
        elif how == "remove":
            return ast.copy_location(ast.Pass(), node)
        return node


def mutant_source(path: Path, site: Site) -> str:
    """The file with only the mutated node's text replaced, so the rest
    reads as before (a test that reads the source, such as one listing the
    rule ids it names, sees no other change)."""
    text = path.read_text()
    tree = ast.parse(text)
    node = list(ast.walk(tree))[site.index]
    lines = text.splitlines(keepends=True)
    start, end = _span(lines, node)
    if site.how == "remove":
        replacement = "pass"
    elif site.how == "negate":
        assert isinstance(node, (ast.If, ast.While, ast.IfExp))
        start, end = _span(lines, node.test)
        replacement = f"not ({text[start:end]})"
    else:
        mutated = _Mutate(tree, site).visit(node)
        assert mutated is not None
        replacement = f"({ast.unparse(mutated)})"
    spliced = text[:start] + replacement + text[end:]
    fresh = ast.parse(text)
    expected = _Mutate(fresh, site).visit(fresh)
    assert expected is not None
    placed = ast.parse(spliced)  # a negative constant parses as -(n): compare values
    if ast.dump(placed) != ast.dump(expected) and not site.how.startswith("const:"):
        raise ValueError(f"cannot place the mutant {site} in the text")
    return spliced


def _span(lines: list[str], node: Any) -> tuple[int, int]:
    """Where ``node`` (an expression or a statement) lies in the text, as string indices."""
    first, last = node.lineno, node.end_lineno
    start = sum(map(len, lines[: first - 1])) + _offset(lines[first - 1], node.col_offset)
    end = sum(map(len, lines[: last - 1])) + _offset(lines[last - 1], node.end_col_offset)
    return start, end


def _offset(line: str, utf8_offset: int) -> int:
    """ast's column offsets count UTF-8 bytes; str indices count characters."""
    return len(line.encode()[:utf8_offset].decode())


def draw(files: list[str], seed: int, count: int) -> list[Site]:
    """``count`` distinct sites, round-robin over ``files``, by ``seed``."""
    rng = random.Random(seed)
    pools = {f: _sites(f, ast.parse((ROOT / DOMAIN / f).read_text())) for f in files}
    for pool in pools.values():
        rng.shuffle(pool)
    chosen: list[Site] = []
    while len(chosen) < count and any(pools.values()):
        for f in files:
            if pools[f] and len(chosen) < count:
                chosen.append(pools[f].pop())
    return chosen


def kind_of(file: str) -> str:
    return file.split("/")[0].replace("_", "-")


def run_tests(scratch: Path, site: Site, timeout: float) -> tuple[str, float, str]:
    """(outcome, seconds, the first failing test or the last lines)."""
    package = site.file.split("/")[0]
    python = str(ROOT / ".venv" / "bin" / "python")
    base = [python, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not slow"]
    command = [
        *base,
        "tests/contract",
        f"tests/{package}",
        "-k",
        f"{kind_of(site.file)} or {package}",
    ]
    started = time.monotonic()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    process = subprocess.Popen(
        command,
        cwd=scratch,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        env=env,
    )
    try:
        out, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return "timeout", time.monotonic() - started, ""
    if process.returncode != 0:
        failed = [line for line in out.splitlines() if line.startswith(("FAILED", "ERROR"))]
        broken = process.returncode in (2, 3, 4, 5) and not failed
        detail = failed[0] if failed else "\n".join(out.splitlines()[-3:])
        return ("broken" if broken else "caught"), time.monotonic() - started, detail
    return "survived", time.monotonic() - started, ""


def copy_checkout(scratch: Path) -> None:
    """What the tests read: the sources, the tests, the rules documents."""
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, scratch / name, ignore=shutil.ignore_patterns("node_modules", ".*")
            )
        else:
            scratch.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, scratch / name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="paths under domain/cardroom/domain/")
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--timeout", type=float, default=240, help="seconds per mutant")
    parser.add_argument("--budget", type=float, default=1500, help="seconds for the whole run")
    parser.add_argument("--jobs", type=int, default=1, help="mutants run at once")
    parser.add_argument("--json", type=Path, help="write every outcome here too")
    parser.add_argument(
        "--only", help="run only these of the drawn mutants, by number: 14,20,35-40"
    )
    parser.add_argument("--list", action="store_true", help="print the mutants and stop")
    args = parser.parse_args()

    drawn = list(enumerate(draw(args.files, args.seed, args.count), 1))
    if args.only:
        wanted = set()
        for part in args.only.split(","):
            first, _, last = part.partition("-")
            wanted |= set(range(int(first), int(last or first) + 1))
        drawn = [(n, site) for n, site in drawn if n in wanted]
    if args.list:
        for n, site in drawn:
            print(f"[{n}] {site.file}:{site.line} {site.how}")
        return 0
    numbers, sites = [n for n, _ in drawn], [site for _, site in drawn]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cardroom-mutants-") as tmp:
        scratches = [Path(tmp) / f"job{j}" for j in range(args.jobs)]
        for scratch in scratches:
            copy_checkout(scratch)
        free: queue.Queue[Path] = queue.Queue()
        for scratch in scratches:
            free.put(scratch)

        def one(number: int, site: Site) -> dict[str, object] | None:
            if time.monotonic() - started > args.budget:
                return None
            scratch = free.get()
            try:
                result = run_mutant(scratch, site)
            finally:
                free.put(scratch)
            print(
                f"[{number}/{args.count}] {result['outcome']:8} {result['seconds']:6.1f}s "
                f"{site.file}:{site.line} {site.how}: {str(result['mutated'])[:90]}",
                flush=True,
            )
            return result

        def run_mutant(scratch: Path, site: Site) -> dict[str, object]:
            target = scratch / DOMAIN / site.file
            original = target.read_text()
            before = original.splitlines()
            mutated = mutant_source(ROOT / DOMAIN / site.file, site)
            changed = [
                f"{a.strip()} -> {b.strip()}"
                for a, b in zip(before, mutated.splitlines(), strict=False)
                if a != b
            ]
            target.write_text(mutated)
            try:
                outcome, seconds, detail = run_tests(scratch, site, args.timeout)
            finally:
                target.write_text(original)
            return {
                **asdict(site),
                "outcome": outcome,
                "seconds": round(seconds, 1),
                "mutated": changed[0] if changed else "",
                "detail": detail,
            }

        with ThreadPoolExecutor(args.jobs) as pool:
            done = list(pool.map(one, numbers, sites))
    results = [r for r in done if r is not None]
    if len(results) < len(sites):
        print(f"budget spent: {len(results)} of {len(sites)} mutants run")
    counts = {
        o: sum(r["outcome"] == o for r in results)
        for o in ("caught", "broken", "survived", "timeout")
    }
    detected = counts["caught"] + counts["broken"]
    print(
        f"\n{len(results)} mutants: {detected} caught ({counts['broken']} of them do not import), "
        f"{counts['survived']} survived, {counts['timeout']} timed out "
        f"({100 * detected / max(len(results), 1):.0f}% caught) "
        f"in {time.monotonic() - started:.0f}s"
    )
    for r in results:
        if r["outcome"] in ("survived", "timeout"):
            print(f"  {r['outcome']}: {r['file']}:{r['line']} {r['how']}: {r['mutated']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
