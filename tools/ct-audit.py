#!/usr/bin/env python3
"""Instruction audit of the secret-handling code of a built library.

usage: ct-audit.py [--allowlist FILE] [--objdump PROG] [--quiet]
                   [--expect-never FUNCTION] BINARY

Disassembles BINARY (libvgcrypto.so, or any object) with
`objdump -d --no-show-raw-insn -M intel`, takes every function of its symbol
table (.symtab: the library is not stripped; what a function inlines is part
of its body), and classifies each by name with the [secret] and [exempt]
sections of the allowlist (tools/ct-audit-allowlist.txt by default):

  * a function matched by a [secret] pattern is audited: every instruction's
    mnemonic must match an [instructions] class, and none may match [never]
    (division, square root: variable latency on Intel and AMD);
  * a function matched by an [exempt] pattern (public data only, or not
    cryptographic code) is not audited;
  * a function matched by neither fails the audit as "unclassified", so that a
    new function cannot escape the audit by having a new name.

Branches and memory operands are not judged here: whether a branch
condition or an address depends on a secret is what the taint checks answer
(valgrind memcheck, MemorySanitizer; docs/constant-time.md). Branch and call
mnemonics are therefore in the allowlist.

Exit status: 0 when every audited instruction is allowed and every function
is classified, 1 otherwise, 2 on a usage or tool error.
--expect-never FUNCTION (the negative control, a WILL_FAIL test): 1 only
when FUNCTION was audited and holds an instruction of [never] (the planted
division was found); 0 otherwise, a tool error included, so that the control
fails unless the audit really saw the division.
"""
import argparse
import fnmatch
import os
import re
import subprocess
import sys


class AuditError(Exception):
    """A usage or tool error (exit 2; 0 under --expect-never)."""

# Instruction prefixes objdump prints before the mnemonic.
PREFIXES = {"rep", "repz", "repe", "repnz", "repne", "lock", "bnd", "notrack", "data16",
            "cs", "ds", "es", "ss", "fs", "gs", "addr32", "rex", "rex.w", "{evex}", "{vex}",
            "{vex3}"}
# Compiler-generated suffixes of local function names (gcc clones).
CLONE = re.compile(r"\.(constprop|isra|part|cold|lto_priv|clone)(\.\d+)*")


def read_allowlist(path):
    """Sections: secret/exempt hold 'area-or-reason pattern...' lines,
    instructions/never hold 'class regex' lines (regex over the mnemonic,
    matched whole)."""
    sec = {"secret": [], "exempt": [], "instructions": [], "never": [], "forms": []}
    cur = None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = re.fullmatch(r"\[(\w+)\]", line)
            if m:
                cur = m.group(1)
                if cur not in sec:
                    raise AuditError(f"{path}:{n}: unknown section [{cur}]")
                continue
            if cur is None:
                raise AuditError(f"{path}:{n}: line outside a section")
            words = line.split()
            if len(words) < 2:
                raise AuditError(f"{path}:{n}: expected 'NAME PATTERN...'")
            if cur in ("secret", "exempt"):
                for pat in words[1:]:
                    sec[cur].append((words[0], pat))
            else:
                sec[cur].append((words[0], re.compile(" ".join(words[1:]))))
    return sec


def functions(binary, objdump):
    """{name: [(address, mnemonic, operands)]} from objdump's disassembly."""
    try:
        out = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-M", "intel", binary],
                             check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise AuditError(f"ct-audit: {objdump} failed on {binary}: {e}")
    funcs = {}
    cur = None
    head = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
    for line in out.splitlines():
        m = head.match(line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        if cur is None or not line.startswith(" ") or ":\t" not in line:
            continue
        addr, _, text = line.partition(":\t")
        words = text.split()
        while words and words[0] in PREFIXES and len(words) > 1:
            words = words[1:]
        if not words or words[0] == "(bad)":
            cur.append((addr.strip(), "(bad)", ""))
            continue
        cur.append((addr.strip(), words[0], " ".join(words[1:])))
    return funcs


def classify(name, sec):
    base = CLONE.sub("", name)
    for area, pat in sec["secret"]:
        if fnmatch.fnmatchcase(base, pat):
            return "secret", area
    for reason, pat in sec["exempt"]:
        if fnmatch.fnmatchcase(base, pat):
            return "exempt", reason
    return None, None


def main():
    try:
        return audit()
    except (AuditError, OSError) as e:
        print(e)
        return 0 if "--expect-never" in sys.argv else 2


def audit():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("binary")
    ap.add_argument("--allowlist", default=os.path.join(here, "ct-audit-allowlist.txt"))
    ap.add_argument("--objdump", default="objdump")
    ap.add_argument("--quiet", action="store_true", help="no per-area summary")
    ap.add_argument("--expect-never", metavar="FUNCTION",
                    help="negative control: exit 1 only if FUNCTION holds a [never] instruction")
    args = ap.parse_args()
    sec = read_allowlist(args.allowlist)
    funcs = functions(args.binary, args.objdump)
    if not funcs:
        raise AuditError(f"ct-audit: no functions found in {args.binary}")

    bad = []           # (function, address, mnemonic, operands, why)
    unclassified = []
    per_area = {}      # area: [functions, instructions]
    mnemonics = {}     # mnemonic: count over the audited functions
    exempt = 0
    for name in sorted(funcs):
        kind, area = classify(name, sec)
        if kind is None:
            # PLT stubs and section markers are not functions of ours.
            if name.endswith("@plt") or name.startswith((".", "_init", "_fini")):
                continue
            unclassified.append(name)
            continue
        if kind == "exempt":
            exempt += 1
            continue
        stats = per_area.setdefault(area, [0, 0])
        stats[0] += 1
        for addr, mn, ops in funcs[name]:
            stats[1] += 1
            mnemonics[mn] = mnemonics.get(mn, 0) + 1
            never = [c for c, rx in sec["never"] if rx.fullmatch(mn)]
            if never:
                bad.append((name, addr, mn, ops, f"never allowed ({never[0]})"))
                continue
            cls = [c for c, rx in sec["instructions"] if rx.fullmatch(mn)]
            if not cls:
                bad.append((name, addr, mn, ops, "not in the allowlist"))
                continue
            # Operand-form rules: "forms" lines are 'class regex' over
            # "mnemonic operands"; a match is a violation.
            form = [c for c, rx in sec["forms"] if rx.search(f"{mn} {ops}")]
            if form:
                bad.append((name, addr, mn, ops, f"form not allowed ({form[0]})"))

    naudit = sum(s[0] for s in per_area.values())
    ninsn = sum(s[1] for s in per_area.values())
    if not args.quiet:
        for area in sorted(per_area):
            print(f"  {area:12s} {per_area[area][0]:4d} functions {per_area[area][1]:7d} instructions")
        print(f"ct-audit: {args.binary}: {naudit} secret-handling functions audited "
              f"({ninsn} instructions, {len(mnemonics)} distinct mnemonics), {exempt} exempt, "
              f"{len(unclassified)} unclassified")
    for name in unclassified:
        print(f"UNCLASSIFIED {name}: add it to [secret] or [exempt] in {args.allowlist}")
    for name, addr, mn, ops, why in bad:
        print(f"FORBIDDEN {name} +{addr}: {mn} {ops}: {why}")
    if args.expect_never:
        seen = any(name == args.expect_never and why.startswith("never")
                   for name, _, _, _, why in bad)
        print(f"ct-audit: negative control: {args.expect_never} "
              + ("holds a forbidden division: found, as required (exit 1)" if seen
                 else "NOT reported: the audit is blind (exit 0)"))
        return 1 if seen else 0
    if naudit == 0:
        print("ct-audit: no secret-handling function found: the patterns match nothing")
        return 1
    return 1 if bad or unclassified else 0


if __name__ == "__main__":
    sys.exit(main())
