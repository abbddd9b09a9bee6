#!/usr/bin/env bash
# Prints the gtest filter of one test tier (unit, validation, gpu, gl or display) from tests/test-labels.txt:
# the patterns of that label's rules, minus every pattern of the rules above them (the first matching
# rule wins); `unit` is everything no rule matches. tests/CMakeLists.txt labels the
# ctest tests with the same filters, so `ctest -L LABEL` and
#   ejecta_tests --gtest_filter="$(scripts/test-filter.sh LABEL)"
# run the same tests (the second works where there is no build tree, e.g. a binary copied elsewhere).
set -euo pipefail
label=${1:?usage: scripts/test-filter.sh unit|validation|gpu|gl|display [labels file]}
file=${2:-$(dirname "$0")/../tests/test-labels.txt}
case $label in unit | validation | gpu | gl | display) ;; *) echo "test-filter.sh: unknown label '$label' (unit, validation, gpu, gl, display)" >&2; exit 2 ;; esac
pos="" neg="" seen="" prev=""
while read -r rule patterns rest; do
  case $rule in '' | '#'*) continue ;; esac
  if [ -n "$rest" ] || [ -z "$patterns" ]; then echo "$file: bad rule '$rule $patterns $rest' (LABEL PATTERNS)" >&2; exit 2; fi
  # A label's rules are consecutive, so that "first match wins" is one gtest filter: the label's
  # patterns minus those of the rules above them.
  if [ "$rule" != "$prev" ]; then
    case " $seen " in *" $rule "*) echo "$file: the rules of label '$rule' must be consecutive" >&2; exit 2 ;; esac
    seen+=" $rule"; prev=$rule
  fi
  if [ "$rule" = "$label" ]; then pos+="${pos:+:}$patterns"; elif [ -z "$pos" ]; then neg+="${neg:+:}$patterns"; fi
done < "$file"
[ "$label" = unit ] && pos="*"
[ -z "$pos" ] && { echo "$file: no rule for label '$label'" >&2; exit 2; }
echo "${pos}${neg:+-$neg}"
