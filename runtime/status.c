// SPDX-License-Identifier: MIT
/*
 * Status codes, their names and the per-thread message of the last failure.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "ppu_internal.h"

static __thread char last_error[512];

static const struct {
	const char *name;
	const char *text;
} status_text[] = {
	[PPU_SUCCESS] = { "PPU_SUCCESS", "no error" },
	[PPU_ERROR_INVALID_VALUE] = { "PPU_ERROR_INVALID_VALUE",
		"an argument is out of range or names nothing of this context" },
	[PPU_ERROR_OUT_OF_MEMORY] = { "PPU_ERROR_OUT_OF_MEMORY", "out of host memory" },
	[PPU_ERROR_OUT_OF_DEVICE_MEMORY] = { "PPU_ERROR_OUT_OF_DEVICE_MEMORY",
		"out of device memory or GPU address space" },
	[PPU_ERROR_NO_DEVICE] = { "PPU_ERROR_NO_DEVICE", "no such PPU device" },
	[PPU_ERROR_NOT_READY] = { "PPU_ERROR_NOT_READY", "the work has not completed yet" },
	[PPU_ERROR_TIMEOUT] = { "PPU_ERROR_TIMEOUT", "the wait timed out" },
	[PPU_ERROR_CHANNEL_FAULT] = { "PPU_ERROR_CHANNEL_FAULT",
		"a channel of this stream faulted; its work is lost" },
	[PPU_ERROR_PERMISSION_DENIED] = { "PPU_ERROR_PERMISSION_DENIED",
		"a device priority above normal needs CAP_SYS_NICE" },
	[PPU_ERROR_NOT_SUPPORTED] = { "PPU_ERROR_NOT_SUPPORTED",
		"the device does not support this" },
	[PPU_ERROR_CONTEXT_ACTIVE] = { "PPU_ERROR_CONTEXT_ACTIVE",
		"the setting can only change before the context's first launch" },
	[PPU_ERROR_OUT_OF_RESOURCES] = { "PPU_ERROR_OUT_OF_RESOURCES",
		"every hardware channel is in use" },
	[PPU_ERROR_DEVICE_LOST] = { "PPU_ERROR_DEVICE_LOST", "the device is gone" },
	[PPU_ERROR_OS] = { "PPU_ERROR_OS", "an operating-system call failed" },
	[PPU_ERROR_NOT_RECORDED] = { "PPU_ERROR_NOT_RECORDED", "the event was never recorded" },
	[PPU_ERROR_INVALID_IMAGE] = { "PPU_ERROR_INVALID_IMAGE",
		"not a kernel image the PPU can run" },
	[PPU_ERROR_NOT_FOUND] = { "PPU_ERROR_NOT_FOUND", "no such symbol in the module" },
	[PPU_ERROR_CONTEXT_MISMATCH] = { "PPU_ERROR_CONTEXT_MISMATCH",
		"the objects belong to different contexts (devices)" },
};

#define NSTATUS (sizeof(status_text) / sizeof(status_text[0]))

const char *ppu_status_name(ppu_status st)
{
	return (unsigned int)st < NSTATUS ? status_text[st].name : "unknown";
}

const char *ppu_status_string(ppu_status st)
{
	return (unsigned int)st < NSTATUS ? status_text[st].text : "unknown status";
}

const char *ppu_last_error(void)
{
	return last_error;
}

void ppu_clear_error(void)
{
	last_error[0] = '\0';
}

static void set_message(const char *fmt, va_list ap, int err)
{
	int n = vsnprintf(last_error, sizeof(last_error), fmt, ap);

	if (err && n >= 0 && (size_t)n < sizeof(last_error))
		snprintf(last_error + n, sizeof(last_error) - (size_t)n, ": %s", strerror(err));
}

ppu_status ppu_fail(ppu_status st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(fmt, ap, 0);
	va_end(ap);
	return st;
}

/* What an errno of ppu.ko's ioctls means for the caller. */
static ppu_status errno_status(int err)
{
	switch (err) {
	case EINVAL:
	case ENOENT:
		return PPU_ERROR_INVALID_VALUE;
	case ENOMEM:
		return PPU_ERROR_OUT_OF_MEMORY;
	case ENOSPC:
		return PPU_ERROR_OUT_OF_DEVICE_MEMORY;
	case EIO:
		return PPU_ERROR_CHANNEL_FAULT;
	case EPERM:
	case EACCES:
		return PPU_ERROR_PERMISSION_DENIED;
	case ENODEV:
		return PPU_ERROR_DEVICE_LOST;
	case EBUSY:
	case EDQUOT:	/* this file's share of channels, BOs or pools (docs/security.md) */
		return PPU_ERROR_OUT_OF_RESOURCES;
	case ETIME:
	case ETIMEDOUT:
		return PPU_ERROR_TIMEOUT;
	default:
		return PPU_ERROR_OS;
	}
}

ppu_status ppu_fail_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_message(fmt, ap, err);
	va_end(ap);
	return errno_status(err);
}

int ppu_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret ? -errno : 0;
}
