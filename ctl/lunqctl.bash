# bash completion for lunqctl(8)                          -*- shell-script -*-
# make install puts it in $(PREFIX)/share/bash-completion/completions/lunqctl,
# where bash-completion loads it when lunqctl is first completed; or source
# it.  Completes the commands, each command's options, the values of those
# that take a choice (--loop closed|open|both), files for -o, lunq device
# names (/sys/kernel/lunq/) for NAME, and nothing after "--" (lunqbench's).

# Each command and its options, one line each, as "lunqctl --list-options"
# lists them (lunqctl's option table, ctl/options.c, and the lunqbench
# options sweep and tune pass on): -L|--NAME, =VALUE when it takes one.
# tests/unit/ctl-options.sh fails when the two differ.  Every command also
# takes -h, --help.
_lunqctl_opts='
create
remove
list -j|--json
show -j|--json
policy -j|--json
set
reset
stat -x|--extended -L|--linux -C|--totals -j|--json -p|--prometheus -o|--output=FILE
hist --wait --service --total --read --write --size --align -q|--quantize -l|--lquantize=LO,HI,STEP -P|--percentiles -j|--json
align --vendor=GLOB --model=GLOB --pool=POOL -j|--json
events -j|--json -c|--count=COUNT -t|--timeout=SECS
apply -n|--dry-run -d|--device=NAME -q|--quiet
sweep --qdepth=LIST --sched=LIST --loop=closed|open|both --curve=LIST -o|--output=PREFIX -j|--json -q|--quiet -v|--verbose --engine=uring|sync --iodepth=N --threads=N --bs=SIZE|SIZE:W,...|MIN-MAX[/STEP] --rdpct=N --seekpct=PCT|eof --range=LO-HI --seed=N --arrival=poisson|uniform|fixed --elapsed=S --warmup=S
tune --p99=TIME --within=PCT --qdepth=LIST --sched=S -o|--output=PREFIX -j|--json -q|--quiet -v|--verbose --online --settle=S --elapsed=S --mode=knee|target --keep --engine=uring|sync --iodepth=N --threads=N --bs=SIZE|SIZE:W,...|MIN-MAX[/STEP] --rdpct=N --seekpct=PCT|eof --range=LO-HI --seed=N --arrival=poisson|uniform|fixed --warmup=S
'

# the lunq devices: their names in /sys/kernel/lunq/
_lunqctl_devices()
{
	local d
	for d in /sys/kernel/lunq/*/; do
		[ -d "$d" ] || continue
		d=${d%/}
		printf '%s\n' "${d##*/}"
	done
}

_lunqctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd= line o spell val i
	local nops=0 words
	COMPREPLY=()
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	# "--opt=value": bash splits at "=" (COMP_WORDBREAKS)
	if [ "$cur" = = ]; then
		cur=
	elif [ "$prev" = = ] && ((COMP_CWORD > 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	# the command: the first word after lunqctl not an option
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		case $cur in
		-*) words='-h --help -V --version' ;;
		*) words="help $(printf '%s\n' "$_lunqctl_opts" | awk 'NF { print $1 }')" ;;
		esac
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$_lunqctl_opts" | awk 'NF { print $1 }')" -- "$cur"))
		return
	fi
	line=$(printf '%s\n' "$_lunqctl_opts" | awk -v c="$cmd" '$1 == c { $1 = ""; print; exit }')
	# the value of the option before, and how many operands came before
	for ((i++; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		--) return ;;		# lunqbench's words
		-*|=) ;;
		*) case ${COMP_WORDS[i - 1]} in
		   -*|=) ;;
		   *) nops=$((nops + 1)) ;;
		   esac ;;
		esac
	done
	for o in $line; do
		case $o in
		*=*) spell=${o%%=*} val=${o#*=} ;;
		*) continue ;;
		esac
		case "|$spell|" in
		*"|$prev|"*) ;;
		*) continue ;;
		esac
		case $val in
		FILE|PREFIX) compopt -o filenames 2> /dev/null
			COMPREPLY=($(compgen -f -- "$cur")) ;;
		NAME) COMPREPLY=($(compgen -W "$(_lunqctl_devices)" -- "$cur")) ;;
		*) [[ $val =~ ^[a-z|]+$ ]] &&
			COMPREPLY=($(compgen -W "${val//|/ }" -- "$cur")) ;;
		esac
		return
	done
	case $cur in
	-*)
		words='-h --help'
		for o in $line; do
			o=${o%%=*}
			words="$words ${o//|/ }"
		done
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return ;;
	esac
	case $cmd in
	create|apply) compopt -o filenames 2> /dev/null ;;
	esac
	case $cmd in
	create) ((nops == 1)) && COMPREPLY=($(compgen -f -- "${cur:-/dev/}")) ;;
	apply) COMPREPLY=($(compgen -f -- "$cur")) ;;
	set) ((nops == 0)) && COMPREPLY=($(compgen -W "$(_lunqctl_devices)" -- "$cur")) ;;
	*) COMPREPLY=($(compgen -W "$(_lunqctl_devices)" -- "$cur")) ;;
	esac
}
complete -F _lunqctl lunqctl
