/* SPDX-License-Identifier: MIT */
/*
 * Built into each C program of test/asan's build: the sanitizers' defaults.
 * The unit cases run the programs with "env -i", so options in the
 * environment would not reach them. Every report goes to a file under
 * FWLOAD_SAN_DIR named after the program, read by test/asan when the cases
 * are done; test/fault.so may be preloaded (the runtime need not be the
 * first library). No leak checks: no program here allocates from the heap,
 * and LeakSanitizer cannot work in one that runs as another user (it
 * reads its own /proc/PID/task, which a process that changed its user
 * cannot).
 */
#ifndef FWLOAD_SAN_DIR
#error "build with -DFWLOAD_SAN_DIR='\"/dir\"'"
#endif

const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

const char *__asan_default_options(void)
{
	return "log_path=" FWLOAD_SAN_DIR "/report:log_exe_name=1:verify_asan_link_order=0:detect_leaks=0";
}

const char *__ubsan_default_options(void)
{
	return "log_path=" FWLOAD_SAN_DIR "/report:log_exe_name=1:print_stacktrace=1:halt_on_error=1";
}
