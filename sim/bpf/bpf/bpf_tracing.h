/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqsim's stand-in for libbpf's <bpf/bpf_tracing.h>: BPF_PROG(name,
 * args...) a plain function of those arguments, as the kernel's struct_ops
 * trampoline passes them.
 */
#ifndef LUNQSIM_BPF_TRACING_H
#define LUNQSIM_BPF_TRACING_H

#define BPF_PROG(name, args...) name(args)

#endif /* LUNQSIM_BPF_TRACING_H */
