# How a tool beside lib/ (ctl/, bench/) keeps ../lib/liblunq.a up to date:
# its Makefile sets LIBLUNQ := ../lib/liblunq.a and includes this file
# after its first target.
$(LIBLUNQ): $(wildcard ../lib/*.c ../lib/*.h) ../lib/Makefile \
		../kmod/lunq_hist.c ../kmod/lunq_names.c ../kmod/lunq_args.c
	$(MAKE) -C ../lib
