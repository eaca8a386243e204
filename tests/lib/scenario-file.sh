# tests/lib/scenario-file.sh: the arena's scenario files (arena/scenarios/,
# the format in arena/scenarios/README.md), read and checked in sh (busybox
# sh in the VM, bash on the host: scripts/arena checks a user's file before
# it boots anything); sim/scenario.c reads the same files for lunqsim, and
# tests/unit/scenario-file.sh holds both to the same answers.
#   scn_read FILE   reads FILE into S_NAME S_ABOUT S_LOWER S_LUN S_LUNS
#                   S_START S_LOAD S_LOAD2 S_NB (the neighbour's words, its
#                   lower device first) S_NB_LOAD S_PHASE_S S_CHANGES
#                   S_FPERIOD S_GOAL S_OBJECTIVE S_LAT S_LAT_NAME S_BOUND_MS
#                   S_BLAT S_BLAT_NAME S_TARGET_MS S_OBSERVER, the phases in
#                   S_NPH and S_PH_1..S_PH_n (each a phase's words); on a
#                   bad file "FILE:LINE: what is wrong" on stderr and 1
#   scn_phase K     the words of phase K (1..S_NPH)
#   scn_label K     the same joined by + (one field of a CSV)
#   scn_key         one line naming everything a static depth's run of a
#                   phase depends on (the sweep shares a phase's runs
#                   between scenarios whose key and phase are the same)
SCN_KEYS="name about lower lun luns start load load2 neighbour neighbour_load phase_s changes foreign_period_ms phase goal objective latency latency_name bound_ms bound_latency bound_name target_ms observer"
SCN_MAX_LUNS=8		# lunqctl's pools take more; four null_blks are what pool4 needs
SCN_MAX_PHASES=32	# a run of 32 phases is already 8.5 minutes at 16 s
SCN_MAX_PHASE_S=600	# a phase longer than 10 minutes is a soak, not an arena run

_scn_err() { echo "$_sf:$_sl: $*" >&2; _se=1; }
_scn_int() {	# VALUE MIN MAX: an integer in [MIN, MAX]
	case $1 in ''|*[!0-9]*) return 1 ;; esac
	[ ${#1} -le 9 ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}
# a latency: resp:KEY (lunqbench's response percentiles) or HIST:KEY (lunq's
# histogram HIST: wait_read ... total_write, or wait, service, total for
# reads and writes together), KEY one of p50 p90 p99 p99.9 p99.99 max
_scn_lat() {
	case ${1%%:*} in
	resp|wait|service|total|wait_read|wait_write|service_read|service_write|total_read|total_write) ;;
	*) return 1 ;;
	esac
	case ${1#*:} in p50|p90|p99|p99.9|p99.99|max) return 0 ;; esac
	return 1
}
# the keys of a phase's words (WORD=... each), sorted; 1 when a word is not
# KEY=VALUE or a key comes twice
_scn_wkeys() {
	_wk=
	for _w in $1; do
		case $_w in [a-z]*=?*) ;; *) return 1 ;; esac
		case " $_wk " in *" ${_w%%=*} "*) return 1 ;; esac
		_wk="$_wk ${_w%%=*}"
	done
	echo $_wk | tr ' ' '\n' | sort | tr '\n' ' '
}
scn_read() {
	_sf=$1 _sl=0 _se=0 _seen=
	S_NAME= S_ABOUT= S_LOWER= S_LUN= S_LUNS=1 S_START= S_LOAD= S_LOAD2= S_NB= S_NB_LOAD=
	S_PHASE_S= S_CHANGES=set S_FPERIOD= S_GOAL= S_OBJECTIVE= S_LAT= S_LAT_NAME=
	S_BOUND_MS=0 S_BLAT= S_BLAT_NAME= S_TARGET_MS= S_OBSERVER= S_NPH=0
	[ -f "$_sf" ] && [ -r "$_sf" ] || { echo "$_sf: no such scenario file" >&2; return 1; }
	while IFS= read -r _line || [ -n "$_line" ]; do
		_sl=$((_sl + 1))
		case $_line in ''|'#'*) continue ;; esac
		case $_line in *=*) ;; *) _scn_err "not KEY=VALUE: '$_line'"; continue ;; esac
		_k=${_line%%=*} _v=${_line#*=}
		case " $SCN_KEYS " in *" $_k "*) ;; *) _scn_err "unknown key '$_k' (keys: $SCN_KEYS)"; continue ;; esac
		if [ "$_k" != phase ]; then
			case " $_seen " in *" $_k "*) _scn_err "'$_k' given twice"; continue ;; esac
			_seen="$_seen $_k"
		fi
		[ -n "$_v" ] || { _scn_err "'$_k' has no value"; continue; }
		case $_k in
		name) case $_v in *[!A-Za-z0-9_-]*|oracle) _scn_err "name: letters, digits, - and _ (not oracle), not '$_v'" ;; *) S_NAME=$_v ;; esac ;;
		about) S_ABOUT=$_v ;;
		lower) case $_v in nb|nb2|own) S_LOWER=$_v ;; *) _scn_err "lower: nb, nb2 or own, not '$_v'" ;; esac ;;
		lun) S_LUN=$_v ;;
		luns) _scn_int "$_v" 1 $SCN_MAX_LUNS && S_LUNS=$_v || _scn_err "luns: 1..$SCN_MAX_LUNS, not '$_v'" ;;
		start) _scn_int "$_v" 1 1024 && S_START=$_v || _scn_err "start: a depth 1..1024, not '$_v'" ;;
		load) S_LOAD=$_v ;;
		load2) S_LOAD2=$_v ;;
		neighbour) case ${_v%% *} in nb|nb2) S_NB=$_v ;; *) _scn_err "neighbour: its lower device (nb or nb2) then its words, not '$_v'" ;; esac ;;
		neighbour_load) S_NB_LOAD=$_v ;;
		phase_s) _scn_int "$_v" 2 $SCN_MAX_PHASE_S && [ $((_v % 2)) = 0 ] && S_PHASE_S=$_v ||
			_scn_err "phase_s: even seconds 2..$SCN_MAX_PHASE_S (--quick halves it), not '$_v'" ;;
		changes) case $_v in set|foreign|rate) S_CHANGES=$_v ;; *) _scn_err "changes: set, foreign or rate, not '$_v'" ;; esac ;;
		foreign_period_ms) _scn_int "$_v" 2 3600000 && [ $((_v % 2)) = 0 ] && S_FPERIOD=$_v ||
			_scn_err "foreign_period_ms: an even number of ms 2..3600000, not '$_v'" ;;
		phase)
			if [ $S_NPH -ge $SCN_MAX_PHASES ]; then _scn_err "more than $SCN_MAX_PHASES phases"; continue; fi
			_scn_wkeys "$_v" > /dev/null || { _scn_err "phase: WORD=VALUE words, each key once, not '$_v'"; continue; }
			S_NPH=$((S_NPH + 1)); eval "S_PH_$S_NPH=\$_v" ;;
		goal) case $_v in iops|latency) S_GOAL=$_v ;; *) _scn_err "goal: iops or latency, not '$_v'" ;; esac ;;
		objective) S_OBJECTIVE=$_v ;;
		latency) _scn_lat "$_v" && S_LAT=$_v || _scn_err "latency: resp:KEY or HIST:KEY (HIST wait, service, total, or one of them _read or _write; KEY p50 p90 p99 p99.9 p99.99 max), not '$_v'" ;;
		latency_name) S_LAT_NAME=$_v ;;
		bound_ms) _scn_int "$_v" 0 3600000 && S_BOUND_MS=$_v || _scn_err "bound_ms: ms 0..3600000 (0: none), not '$_v'" ;;
		bound_latency) _scn_lat "$_v" && S_BLAT=$_v || _scn_err "bound_latency: as latency, not '$_v'" ;;
		bound_name) S_BLAT_NAME=$_v ;;
		target_ms) _scn_int "$_v" 1 3600000 && S_TARGET_MS=$_v || _scn_err "target_ms: ms 1..3600000, not '$_v'" ;;
		observer) case $_v in lunqbench-max) S_OBSERVER=$_v ;; *) _scn_err "observer: lunqbench-max, not '$_v'" ;; esac ;;
		esac
	done < "$_sf"
	# what is missing, and what does not hold together
	_sl=end
	for _k in name lower lun start load phase_s goal latency; do
		case " $_seen " in *" $_k "*) ;; *) _scn_err "no '$_k'" ;; esac
	done
	[ $S_NPH -ge 1 ] || _scn_err "no phase"
	[ -n "$S_LAT_NAME" ] || S_LAT_NAME=$S_LAT
	[ -n "$S_OBJECTIVE" ] || S_OBJECTIVE="most IOPS"
	[ -n "$S_BLAT" ] || S_BLAT=$S_LAT
	[ -n "$S_BLAT_NAME" ] || { if [ "$S_BLAT" = "$S_LAT" ]; then S_BLAT_NAME=$S_LAT_NAME; else S_BLAT_NAME=$S_BLAT; fi; }
	if [ "$S_LUNS" -gt 1 ] && [ "$S_LOWER" != own ]; then _scn_err "luns=$S_LUNS needs lower=own (a null_blk each)"; fi
	if [ -n "$S_NB" ] && [ -z "$S_NB_LOAD" ]; then _scn_err "neighbour without neighbour_load"; fi
	if [ -z "$S_NB" ] && [ -n "$S_NB_LOAD" ]; then _scn_err "neighbour_load without neighbour"; fi
	if [ -n "$S_NB" ] && [ "${S_NB%% *}" = "$S_LOWER" ]; then _scn_err "the neighbour on the LUN's own lower device ($S_LOWER)"; fi
	if [ -n "$S_NB" ] && [ "$S_LUNS" -gt 1 ]; then _scn_err "a neighbour beside luns=$S_LUNS"; fi
	case " $_seen " in *" bound_latency "*|*" bound_name "*)
		[ "$S_BOUND_MS" != 0 ] || _scn_err "bound_latency or bound_name without bound_ms" ;; esac
	if [ -n "$S_OBSERVER" ]; then
		{ [ "$S_BOUND_MS" != 0 ] && [ "${S_BLAT#*:}" = max ] && [ "$S_LUNS" = 1 ]; } ||
			_scn_err "observer=lunqbench-max needs bound_ms, a bound on a max (bound_latency or latency KEY max) and one LUN"
	fi
	if [ "$S_LUNS" -gt 1 ] || [ "$S_CHANGES" = rate ]; then
		case $S_LAT in resp:*) ;; *) [ "$S_LUNS" = 1 ] || _scn_err "luns=$S_LUNS: latency resp:KEY (each LUN's load, the worst)" ;; esac
	fi
	[ -z "$S_LOAD2" ] || [ "$S_LUNS" = 1 ] || _scn_err "load2 with luns=$S_LUNS"
	# the phases: the run moves from one to the next as the sweep holds
	# each alone, or the file is refused
	if [ -z "$S_PHASE_S" ] || [ $S_NPH = 0 ]; then return 1; fi
	case $S_CHANGES in
	set)	# lunqctl set at each phase's start: every phase sets the same
		# keys, so that no word of an earlier phase stays behind
		[ -z "$S_FPERIOD" ] || _scn_err "foreign_period_ms without changes=foreign"
		_k1=$(_scn_wkeys "$S_PH_1") _k=2
		while [ $_k -le $S_NPH ]; do
			eval "_p=\$S_PH_$_k"
			[ "$(_scn_wkeys "$_p")" = "$_k1" ] ||
				_scn_err "changes=set: phase $_k ('$_p') does not set the same keys as phase 1 ('$S_PH_1'): the run would keep what the sweep drops"
			_k=$((_k + 1))
		done ;;
	foreign)	# the other initiators come and go by themselves, half of
		# every foreign_period_ms: two phases, foreign=N then foreign=0,
		# and whole periods in a run at either length
		[ -n "$S_FPERIOD" ] || _scn_err "changes=foreign needs foreign_period_ms"
		{ [ $S_NPH = 2 ] && case $S_PH_1 in foreign=*[!0-9]*|foreign=0) false ;; foreign=?*) true ;; *) false ;; esac &&
			[ "$S_PH_2" = foreign=0 ]; } ||
			_scn_err "changes=foreign: two phases, foreign=N (N > 0) then foreign=0, not '$S_PH_1' and '${S_PH_2:-}'"
		if [ -n "$S_FPERIOD" ] && [ $((S_PHASE_S * 1000 % S_FPERIOD)) != 0 ]; then
			_scn_err "changes=foreign: phase_s x 1000 ($((S_PHASE_S * 1000)) ms, the run at --quick) is not whole periods of $S_FPERIOD ms: the phases would not get equal time"
		fi ;;
	rate)	# one lunqbench run per phase at its rate
		[ -z "$S_FPERIOD" ] || _scn_err "foreign_period_ms without changes=foreign"
		[ "$S_LUNS" = 1 ] && [ -z "$S_NB" ] && [ -z "$S_LOAD2" ] || _scn_err "changes=rate: one LUN, one load"
		case " $S_LOAD " in *" --iorate "*) _scn_err "changes=rate: the load has its own --iorate" ;; esac
		_k=1
		while [ $_k -le $S_NPH ]; do
			eval "_p=\$S_PH_$_k"
			case $_p in rate=*[!0-9]*|rate=0*|rate=) _scn_err "changes=rate: phase $_k is '$_p', not rate=N (IOs a second, N > 0)" ;;
			rate=*) ;; *) _scn_err "changes=rate: phase $_k is '$_p', not rate=N (IOs a second, N > 0)" ;; esac
			_k=$((_k + 1))
		done ;;
	esac
	if [ $_se = 0 ] && [ "$S_CHANGES" != rate ]; then
		_k=1
		while [ $_k -le $S_NPH ]; do
			eval "_p=\$S_PH_$_k"
			case " $_p" in *" rate="*) _scn_err "phase $_k: rate= only with changes=rate" ;; esac
			_k=$((_k + 1))
		done
	fi
	return $_se
}
scn_phase() { eval "echo \"\$S_PH_$1\""; }
scn_label() { scn_phase "$1" | tr ' ' '+'; }
scn_key() { echo "$S_LOWER|$S_LUNS|$S_LUN|$S_LOAD|$S_LOAD2|$S_NB|$S_NB_LOAD|$S_PHASE_S|$S_LAT|$S_BOUND_MS|$S_BLAT|$S_OBSERVER"; }
