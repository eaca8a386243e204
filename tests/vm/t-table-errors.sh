# Bad table lines: each create fails, the kernel log names the problem,
# and no device is left behind.
# group: basic
# time: 10
. "$LUNQ_SRC/tests/vm/lib.sh"

ram=$(brd_create 16) || fail "brd setup"
sz=$(sectors "$ram")

# bad "TABLE" "expected text in the kernel log"
bad() {
	mark=$(dmesg_mark)
	if echo "$1" | dmsetup create --noudevsync lqbad >/dev/null 2>&1; then
		dm_remove lqbad
		fail "accepted: $1"
	fi
	dm_exists lqbad && fail "device left behind after: $1"
	expect_log "$mark" "$2" "$1"
	ok "refused '$1': $2"
}

bad "0 8 lunq /dev/lunq-nonexistent 0" "Cannot open the lower device"
bad "0 8 lunq $ram" "Missing <dev_path> or <offset>"
bad "0 8 lunq $ram abc" "Invalid offset"
bad "0 8 lunq $ram -1" "Invalid offset"
bad "0 8 lunq $ram $sz" "Offset plus length exceeds the lower device"
bad "0 $sz lunq $ram 1" "Offset plus length exceeds the lower device"
bad "0 8 lunq $ram 0 3 qdepth:1" "Invalid number of optional arguments"
bad "0 8 lunq $ram 0 x" "Invalid number of optional arguments"
bad "0 8 lunq $ram 0 0 extra" "Too many arguments"
bad "$(lunq_table -l 8 $ram foo:1)" "Unknown optional argument key"
bad "$(lunq_table -l 8 $ram foo:1)" "rejected optional argument 'foo:1'"
bad "$(lunq_table -l 8 $ram qdepth)" "not of the form key:value"
bad "$(lunq_table -l 8 $ram qdepth:abc)" "qdepth: value must be an integer 0..65535"
bad "$(lunq_table -l 8 $ram qdepth:65536)" "qdepth: value must be an integer 0..65535"
bad "$(lunq_table -l 8 $ram qdepth:-1)" "qdepth: value must be an integer 0..65535"
bad "$(lunq_table -l 8 $ram sched:elevator)" "sched: value must be one of fifo, disksort"
bad "$(lunq_table -l 8 $ram pblk:1000)" "pblk: value must be a power of two 512..65536"
bad "$(lunq_table -l 8 $ram pool:bad/name)" "pool: name must be"
bad "$(lunq_table -l 8 $ram bubble_ms:3600001)" "bubble_ms: value must be an integer 0..3600000"
# rules between keys, and pools
bad "$(lunq_table -l 8 $ram reaction:linux)" "reaction: needs qdepth:1 or more"
bad "$(lunq_table -l 8 $ram pool_depth:8)" "pool_depth: needs pool:NAME"
bad "$(lunq_table -l 8 $ram pool:newpool)" "pool_depth: needed by the first table that names a pool"
bad "$(lunq_table -l 8 $ram lun_depth:2 foreign:2)" "foreign: must be below lun_depth"
bad "$(lunq_table -l 8 $ram pool:p pool_depth:0)" "pool_depth: value must be an integer 1..65535"
bad "$(lunq_table -l 8 $ram model:ssd)" "model: value must be one of none, fixed, flash, hdd"
bad "$(lunq_table -l 8 $ram channels:0)" "channels: value must be an integer 1..1024"
bad "$(lunq_table -l 8 $ram qdepth:4 qdepth:8)" "qdepth: given more than once"
bad "$(lunq_table -l 8 $ram max_wait_ms:3600001)" "max_wait_ms: value must be an integer 0..3600000"

# and a good line still works afterwards
lunq_create lq -l 8 $ram || fail "a valid table was refused"
ok "valid table accepted"
