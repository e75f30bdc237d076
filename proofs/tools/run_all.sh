#!/usr/bin/env bash
# Builds and runs every proof in a temporary copy (never inside proofs/) and compares
# its standard output with expected.stdout byte for byte.
#   python: python3 main.py              (cwd = the copy)
#   java:   javac -d <tmp>/classes $(every *.java) ; java -cp <tmp>/classes Main
#   c:      cc -O0 -o <tmp>/main $(every *.c) ; <tmp>/main
#   cpp:    c++ -std=c++17 -O0 -o <tmp>/main $(every *.cpp *.cc) ; <tmp>/main
#   rust:   rustc --edition 2021 -C opt-level=0 -o <tmp>/main main.rs ; <tmp>/main
#   typescript: node main.js, or for a main.ts case the pinned tsc
#           (oracles/tsc/node_modules/.bin/tsc --outDir <tmp>/out --module commonjs
#           --target es2020 ...) then node <tmp>/out/main.js; a case with a
#           tsconfig.json: tsc -p tsconfig.json --outDir out, then node out/main.js
# usage: proofs/tools/run_all.sh [CASE_DIR...]     (default: every case)
# Prints one line per failing case and `N passed, M failed`; exit 0 when none failed.
set -u
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$#" -gt 0 ]; then
  cases=("$@")
else
  mapfile -t cases < <(find "$here/python" "$here/java" "$here/rust" "$here/c" "$here/cpp" "$here/typescript" -mindepth 1 -maxdepth 1 -type d | sort)
fi
passed=0
failed=0
work="$(mktemp -d "${TMPDIR:-/tmp}/proofs-run.XXXXXX")"
trap 'rm -rf "$work"' EXIT
for case in "${cases[@]}"; do
  case="${case%/}"
  lang="$(basename "$(dirname "$case")")"
  name="$lang/$(basename "$case")"
  copy="$work/$lang-$(basename "$case")"
  rm -rf "$copy"; mkdir -p "$copy"
  cp -R "$case/." "$copy/case"
  rm -f "$copy/case/expected.json" "$copy/case/expected.stdout"
  got="$copy/stdout"
  why=""
  case "$lang" in
    python)
      (cd "$copy/case" && PYTHONDONTWRITEBYTECODE=1 timeout 60 python3 main.py >"$got" 2>"$copy/stderr") \
        || why="run failed: $(tail -n 3 "$copy/stderr")"
      ;;
    c|cpp)
      if [ "$lang" = c ]; then cc=(cc); pat=(-name '*.c'); else cc=(c++ -std=c++17); pat=(-name '*.cpp' -o -name '*.cc'); fi
      mapfile -t srcs < <(cd "$copy/case" && find . \( "${pat[@]}" \) | sort)
      if ! (cd "$copy/case" && timeout 60 "${cc[@]}" -O0 -o "$copy/main" "${srcs[@]}" 2>"$copy/stderr"); then
        why="build failed: $(head -n 3 "$copy/stderr")"
      elif ! (cd "$copy/case" && timeout 60 "$copy/main" >"$got" 2>"$copy/stderr"); then
        why="run failed: $(head -n 3 "$copy/stderr")"
      fi
      ;;
    java)
      mapfile -t srcs < <(cd "$copy/case" && find . -name '*.java' | sort)
      if ! (cd "$copy/case" && timeout 60 javac -d "$copy/classes" "${srcs[@]}" 2>"$copy/stderr"); then
        why="build failed: $(head -n 5 "$copy/stderr")"
      elif ! (cd "$copy/case" && timeout 60 java -cp "$copy/classes" Main >"$got" 2>"$copy/stderr"); then
        why="run failed: $(tail -n 3 "$copy/stderr")"
      fi
      ;;
    rust)
      if ! (cd "$copy/case" && timeout 60 rustc --edition 2021 -C opt-level=0 -o "$copy/main" main.rs 2>"$copy/stderr"); then
        why="build failed: $(head -n 5 "$copy/stderr")"
      elif ! (cd "$copy/case" && timeout 60 "$copy/main" >"$got" 2>"$copy/stderr"); then
        why="run failed: $(tail -n 3 "$copy/stderr")"
      fi
      ;;
    typescript)
      tsc="$here/../oracles/tsc/node_modules/.bin/tsc"
      if [ -f "$copy/case/tsconfig.json" ]; then
        # A tsc project: its own options and files, output in its out/ (so that its
        # package.json exports resolve for node too).
        if [ ! -x "$tsc" ]; then
          why="tsc missing: run npm ci --prefix oracles/tsc"
        elif ! (cd "$copy/case" && timeout 60 "$tsc" -p tsconfig.json --outDir out --skipLibCheck --types node \
              --typeRoots "$here/../oracles/tsc/node_modules/@types" >"$copy/stderr" 2>&1); then
          why="build failed: $(head -n 5 "$copy/stderr")"
        elif ! (cd "$copy/case" && timeout 60 node out/main.js >"$got" 2>"$copy/stderr"); then
          why="run failed: $(tail -n 3 "$copy/stderr")"
        fi
      elif [ -f "$copy/case/main.ts" ]; then
        if [ ! -x "$tsc" ]; then
          why="tsc missing: run npm ci --prefix oracles/tsc"
        elif ! (cd "$copy/case" && timeout 60 "$tsc" --outDir "$copy/out" --rootDir . --module commonjs \
              --target es2020 --strict --esModuleInterop --skipLibCheck --types node \
              --typeRoots "$here/../oracles/tsc/node_modules/@types" $(find . -name '*.ts' | sort) >"$copy/stderr" 2>&1); then
          why="build failed: $(head -n 5 "$copy/stderr")"
        elif ! (cd "$copy/case" && timeout 60 node "$copy/out/main.js" >"$got" 2>"$copy/stderr"); then
          why="run failed: $(tail -n 3 "$copy/stderr")"
        fi
      elif ! (cd "$copy/case" && timeout 60 node main.js >"$got" 2>"$copy/stderr"); then
        why="run failed: $(tail -n 3 "$copy/stderr")"
      fi
      ;;
    *) why="unknown language $lang" ;;
  esac
  if [ -z "$why" ] && ! cmp -s "$got" "$case/expected.stdout"; then
    why="stdout differs: $(diff "$case/expected.stdout" "$got" | head -n 6)"
  fi
  if [ -z "$why" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: $why"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
