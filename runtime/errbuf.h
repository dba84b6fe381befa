/* SPDX-License-Identifier: MIT */
/*
 * The error reporting of libppu's device-free modules (module_elf,
 * launch_plan): a message into the caller's buffer and -1, so the same
 * code serves the runtime, the tests and the reference model.
 */
#ifndef PPU_ERRBUF_H
#define PPU_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

__attribute__((format(printf, 3, 4)))
static inline int ppu_errbuf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#endif /* PPU_ERRBUF_H */
