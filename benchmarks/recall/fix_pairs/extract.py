"""Extract the trees before and after each fix commit listed in pairs.tsv.

Third-party code is never committed here: each row names a public commit, and this script
rebuilds the two trees (commit^ and commit) from a local git mirror into a cache outside the
repository. Rows whose mirror is absent are skipped with a one-line note.

    python benchmarks/recall/fix_pairs/extract.py [--pairs PATH] [--mirrors DIR ...] [--cache DIR]

Another script can import `rows` and `extract` and run a linter on the two roots.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_PAIRS = HERE / "pairs.tsv"
DEFAULT_MIRRORS = (Path("/work/.mirror"), Path("~/.cache/optlint-recall/mirrors").expanduser())
DEFAULT_CACHE = Path("~/.cache/optlint-recall/pairs").expanduser()
REPO_ROOT = HERE.parents[2]


def rows(path: Path | str = DEFAULT_PAIRS) -> list[dict[str, str]]:
    """The manifest's rows as dicts keyed by the header (repo, commit, path, line, rule, class, note)."""
    with open(path, newline="", encoding="utf-8") as f:
        # Lines starting with `#` say who mined the rows and how.
        lines = [line for line in f if not line.startswith("#")]
    return [dict(r) for r in csv.DictReader(lines, delimiter="\t") if r.get("repo")]


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()


def find_git_dir(repo: str, mirrors: Iterable[Path | str]) -> Path | None:
    """The git directory of `owner/name` under one of `mirrors`.

    A mirror folder is named `owner+name`; it may be the git directory itself (bare), hold a
    `.git`, or hold the git directory one or two levels down (e.g. `owner+name/repo`).
    """
    name = repo.replace("/", "+")
    for root in mirrors:
        top = Path(root).expanduser() / name
        if not top.is_dir():
            continue
        candidates = [top, top / ".git"]
        candidates += sorted(p for p in top.iterdir() if p.is_dir())
        candidates += sorted(q for p in top.iterdir() if p.is_dir() for q in p.iterdir() if q.is_dir())
        for c in candidates:
            if _is_git_dir(c):
                return c
    return None


def _has_commit(git_dir: Path, sha: str) -> bool:
    r = subprocess.run(["git", "--git-dir", str(git_dir), "cat-file", "-e", f"{sha}^{{commit}}"],
                       capture_output=True)
    return r.returncode == 0


def _git_archive(git_dir: Path, rev: str, into: Path) -> bool:
    """`git archive rev | tar -x -C into`; False when it fails (e.g. a blob the snapshot lacks)."""
    archive = subprocess.Popen(["git", "--git-dir", str(git_dir), "archive", "--format=tar", rev],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    untar = subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout,
                           stderr=subprocess.DEVNULL)
    assert archive.stdout is not None
    archive.stdout.close()
    return archive.wait() == 0 and untar.returncode == 0


def _blob_by_blob(git_dir: Path, rev: str, into: Path) -> list[str]:
    """Write every blob of `rev` that the mirror holds; return the paths it lacks.

    Mirrors made from snapshots may omit large files (and LFS content), which makes
    `git archive` fail as a whole; the Python sources the benchmark needs are all present.
    """
    git = ["git", "--git-dir", str(git_dir)]
    listing = subprocess.run(git + ["ls-tree", "-r", "-z", rev], capture_output=True, check=True).stdout
    entries = []
    for item in listing.split(b"\0"):
        if not item:
            continue
        meta, path = item.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode.decode(), sha.decode(), path.decode("utf-8", "surrogateescape")))
    missing = []
    with subprocess.Popen(git + ["cat-file", "--batch"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE) as cat:
        assert cat.stdin is not None and cat.stdout is not None
        for mode, sha, path in entries:
            cat.stdin.write(sha.encode() + b"\n")
            cat.stdin.flush()
            header = cat.stdout.readline().split()
            if len(header) < 3 or header[1] != b"blob":
                missing.append(path)
                continue
            data = cat.stdout.read(int(header[2]))
            cat.stdout.read(1)  # the newline after the object
            out = into / path
            out.parent.mkdir(parents=True, exist_ok=True)
            if mode == "120000":
                out.symlink_to(data.decode("utf-8", "surrogateescape"))
                continue
            out.write_bytes(data)
            if mode == "100755":
                out.chmod(0o755)
        cat.stdin.close()
    return missing


def _archive(git_dir: Path, rev: str, dest: Path) -> None:
    """Write the tree of `rev` into `dest` (atomically: a temporary sibling, then a rename)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=dest.name + ".", dir=dest.parent))
    try:
        if not _git_archive(git_dir, rev, tmp):
            shutil.rmtree(tmp)
            tmp.mkdir()
            missing = _blob_by_blob(git_dir, rev, tmp)
            if missing:
                # Beside the tree, not in it, so a linter run on the tree never sees it.
                listing = dest.parent / f"{dest.name}.missing.txt"
                listing.write_text("".join(p + "\n" for p in missing), encoding="utf-8")
        tmp.rename(dest)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def extract(row: dict[str, str], mirrors: Iterable[Path | str],
            cache: Path | str = DEFAULT_CACHE) -> tuple[Path, Path] | None:
    """(before_root, after_root) for one row, extracting once; None when no mirror holds the commit."""
    cache = Path(cache).expanduser()
    git_dir = find_git_dir(row["repo"], mirrors)
    if git_dir is None or not _has_commit(git_dir, row["commit"]):
        return None
    base = cache / row["repo"].replace("/", "+") / row["commit"]
    # Never write inside this repository, whatever --cache says.
    if REPO_ROOT == base.resolve() or REPO_ROOT in base.resolve().parents:
        raise ValueError(f"cache {cache} lies inside the repository {REPO_ROOT}")
    before, after = base / "before", base / "after"
    if not before.is_dir():
        _archive(git_dir, row["commit"] + "^", before)
    if not after.is_dir():
        _archive(git_dir, row["commit"], after)
    return before, after


def _raw_line(before: Path, row: dict[str, str]) -> str | None:
    """The row's line in the before tree, or None when the file or line is missing."""
    path = before / row["path"]
    if not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    n = int(row["line"])
    return lines[n - 1] if 0 < n <= len(lines) else None


def _line_in(path: Path, line: str | None) -> bool:
    if line is None or not path.is_file():
        return False
    return line in path.read_text(encoding="utf-8", errors="replace").splitlines()


def hazard_line(before: Path, row: dict[str, str]) -> str:
    """The text at the row's line in the before tree, so a reader can check the manifest."""
    line = _raw_line(before, row)
    return "(path or line missing in the before tree)" if line is None else line.strip()[:100]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--pairs", type=Path, default=DEFAULT_PAIRS)
    ap.add_argument("--mirrors", type=Path, nargs="+", default=list(DEFAULT_MIRRORS))
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = ap.parse_args(argv)
    found = skipped = 0
    for row in rows(args.pairs):
        label = f"{row['repo']}@{row['commit'][:10]} {row['path']}:{row['line']} {row['rule']}"
        roots = extract(row, args.mirrors, args.cache)
        if roots is None:
            skipped += 1
            print(f"skip {label}: no local mirror holds this commit")
            continue
        found += 1
        before, after = roots
        text = hazard_line(before, row)
        # A self-check of the manifest: the fix should have changed or removed that line.
        changed = "changed" if not _line_in(after / row["path"], _raw_line(before, row)) else "UNCHANGED"
        print(f"ok   {label} -> {before.parent}  [{changed} in after] | {text}")
    print(f"{found} extracted, {skipped} skipped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
