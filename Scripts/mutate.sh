#!/usr/bin/env bash
# The project's mutation check: do the tests bite? Applies each one-line mutation listed in
# Scripts/mutations.txt in turn (the exact text in its file replaced), rebuilds incrementally, runs
# the test suites the mutation names (or, for `tests: sh:COMMAND`, a command such as a guest suite),
# restores the file, and prints a table: killed (by which
# tests) or survived, and the kill rate. A trap restores any mutated file, so the tree is never left
# changed, whatever ends the run. Not part of CI: each mutation costs a rebuild of its module and the
# test bundle (1 to 3 minutes on two cores), so the whole list takes tens of minutes.
#
# Usage: Scripts/mutate.sh [ID...]      every mutation, or only these ids
#        Scripts/mutate.sh --list       the list, with each mutation's file and line
# Environment: MUTATION_TIMEOUT=s (each test run, default 900), MUTATIONS=file (default Scripts/mutations.txt)
# Exit status: 0 when every mutation run was killed; 1 when one survived or could not be applied.
set -uo pipefail
cd "$(dirname "$0")/.."
list=${MUTATIONS:-Scripts/mutations.txt}
timeout_s=${MUTATION_TIMEOUT:-900}
work=$(mktemp -d /tmp/marquee-mutate.XXXXXX)

# The list as tab-separated rows: id, file, line, what, tests (find and replace stay in files).
parse() {
  python3 - "$list" "$work" "$@" <<'PY'
import os, sys
path, work, wanted = sys.argv[1], sys.argv[2], set(sys.argv[3:])
blocks, block = [], {}
for raw in open(path, encoding='utf-8'):
    line = raw.rstrip('\n')
    if line.startswith('#'):
        continue
    if not line.strip():
        if block: blocks.append(block); block = {}
        continue
    key, _, value = line.partition(':')
    block[key.strip()] = value[1:] if value.startswith(' ') else value
if block: blocks.append(block)
problems = 0
for b in blocks:
    missing = [k for k in ('id', 'what', 'file', 'find', 'replace', 'tests') if k not in b]
    if missing:
        print(f"mutate: {path}: a block lacks {', '.join(missing)}: {b}", file=sys.stderr); problems += 1; continue
    if wanted and b['id'] not in wanted:
        continue
    try:
        text = open(b['file'], encoding='utf-8').read()
    except OSError as error:
        print(f"mutate: mutation {b['id']}: {b['file']}: {error.strerror}", file=sys.stderr); problems += 1; continue
    count = text.count(b['find'])
    if count != 1:
        print(f"mutate: mutation {b['id']}: its text occurs {count} times in {b['file']}, not once: {b['find']}", file=sys.stderr)
        problems += 1; continue
    line = text[:text.index(b['find'])].count('\n') + 1
    with open(os.path.join(work, b['id'] + '.find'), 'w', encoding='utf-8') as f: f.write(b['find'])
    with open(os.path.join(work, b['id'] + '.replace'), 'w', encoding='utf-8') as f: f.write(b['replace'])
    print('\t'.join([b['id'], b['file'], str(line), b['what'], b['tests']]))
sys.exit(1 if problems else 0)
PY
}

# apply FILE FINDFILE REPLACEFILE: the one occurrence replaced, in place.
apply() {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
path, find, replace = sys.argv[1], open(sys.argv[2], encoding='utf-8').read(), open(sys.argv[3], encoding='utf-8').read()
text = open(path, encoding='utf-8').read()
assert text.count(find) == 1, f"{path}: the text is not there exactly once"
open(path, 'w', encoding='utf-8').write(text.replace(find, replace, 1))
PY
}

mutated=""   # the file under mutation now; its original is $work/original
restore() {
  if [ -n "$mutated" ]; then
    cp -p "$work/original" "$mutated"
    touch "$mutated"   # newer than the mutated build, so the next build compiles it again
    mutated=""
  fi
}
finish() {
  restore
  rm -rf "$work"
}
trap finish EXIT
trap 'echo "mutate: interrupted; the tree is restored" >&2; exit 130' INT TERM HUP

if [ "${1:-}" = "--list" ]; then
  parse | awk -F'\t' '{ printf "%-3s %s:%s  %s  [%s]\n", $1, $2, $3, $4, $5 }'
  exit ${PIPESTATUS[0]}
fi

rows=$(parse "$@") || { echo "mutate: fix $list first" >&2; exit 1; }
[ -n "$rows" ] || { echo "mutate: no mutation matches: $*" >&2; exit 1; }

# failing TESTLOG: the tests that failed or recorded an issue, comma-separated.
failing() {
  grep -E '^✘ Test ' "$1" | grep -v '^✘ Test run with' | sed -E 's/^✘ Test ([^ ]+).*/\1/' | sed -E 's/\(.*\)$//' | sort -u | paste -sd, -
}

echo "mutate: building the unmutated tree" >&2
swift build --build-tests > "$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; echo "mutate: the tree does not build" >&2; exit 1; }
filters=$(printf '%s\n' "$rows" | cut -f5 | grep -v '^sh:' | paste -sd'|' -)
echo "mutate: the suites the list names must pass first" >&2
if [ -n "$filters" ] && ! timeout "$timeout_s" swift test --skip-build --disable-xctest --filter "$filters" > "$work/baseline.log" 2>&1; then
  echo "mutate: they fail without any mutation: $(failing "$work/baseline.log")" >&2
  exit 1
fi
# A mutation whose `tests` is `sh:COMMAND` is caught by a command (a guest suite): it must pass too.
while IFS= read -r command; do
  if ! timeout "$timeout_s" bash -c "$command" > "$work/baseline.log" 2>&1 < /dev/null; then
    echo "mutate: '$command' fails without any mutation: $(grep -m3 '^FAIL' "$work/baseline.log" | paste -sd';' -)" >&2
    exit 1
  fi
done < <(printf '%s\n' "$rows" | cut -f5 | sed -n 's/^sh://p' | sort -u)

killed=0; total=0; table=""
# The list comes in on fd 3: a command run below (a guest suite) must not read it from stdin.
while IFS=$'\t' read -r -u 3 id file line what tests; do
  total=$((total + 1))
  started=$(date +%s)
  cp -p "$file" "$work/original"
  mutated=$file
  echo "mutate: $id: $file:$line: $what" >&2
  if ! apply "$file" "$work/$id.find" "$work/$id.replace" > "$work/apply.log" 2>&1; then
    result="could not be applied"; by="$(tail -1 "$work/apply.log")"
  elif ! swift build --build-tests > "$work/build.log" 2>&1 < /dev/null; then
    result="did not build"; by="$(grep -m1 'error:' "$work/build.log" | cut -c1-120)"
  else
    status=0
    if [[ $tests == sh:* ]]; then
      timeout "$timeout_s" bash -c "${tests#sh:}" > "$work/test.log" 2>&1 < /dev/null || status=$?
    else
      timeout "$timeout_s" swift test --skip-build --disable-xctest --filter "$tests" > "$work/test.log" 2>&1 < /dev/null || status=$?
    fi
    if [ $status -eq 124 ]; then
      result="killed"; by="timed out after ${timeout_s} s"; killed=$((killed + 1))
    elif [ $status -ne 0 ]; then
      if [[ $tests == sh:* ]]; then by=$(grep '^FAIL' "$work/test.log" | cut -d: -f1 | paste -sd, -); else by=$(failing "$work/test.log"); fi
      result="killed"; by=${by:-"the test run failed (exit $status)"}; killed=$((killed + 1))
    elif [[ $tests != sh:* ]] && ! grep -qE 'Test run with [1-9][0-9]* tests? .*passed' "$work/test.log"; then
      result="ran no test"; by="filter '$tests' matched nothing"
    else
      result="SURVIVED"; by="-"
    fi
  fi
  restore
  seconds=$(( $(date +%s) - started ))
  echo "mutate: $id: $result ($by) in ${seconds} s" >&2
  table+="| $id | $what | \`$file:$line\` | $result | $by |"$'\n'
done 3<<< "$rows"

echo
echo "| # | mutation | where | result | killed by |"
echo "|---|---|---|---|---|"
printf '%s' "$table"
echo
echo "killed $killed of $total ($(( killed * 100 / total )) %)"
# Leave the build matching the restored tree.
swift build --build-tests > "$work/build.log" 2>&1 || echo "mutate: warning: the restored tree did not rebuild" >&2
[ "$killed" -eq "$total" ]
