# tests/lib/lunqsim-test.sh: how a test of sim/lunqsim starts, sourced
# once $top is set: TAP (tests/unit/tap.sh), a temporary directory ($tmp),
# lunqsim built ($sim), the VM arena's scenario checker
# (tests/lib/scenario-file.sh), the top of the tree as the working
# directory.
. "$top/tests/unit/tap.sh"
tap_tmpdir
tap_built "lunqsim builds" "$top" sim/lunqsim
sim=$top/sim/lunqsim
. "$top/tests/lib/scenario-file.sh"
cd "$top" || exit 1
