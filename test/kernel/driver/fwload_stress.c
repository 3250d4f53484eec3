// SPDX-License-Identifier: GPL-2.0
/*
 * fwload_stress - a test driver for many concurrent firmware requests.
 *
 * test_firmware serialises its triggers behind one mutex and its batched
 * requests share one name, so it cannot ask for many different images at
 * once. This driver can:
 *
 *   echo "64 fwload-test-stress" > /sys/devices/virtual/misc/fwload_stress/trigger
 *
 * calls request_firmware_nowait() (with a uevent) for fwload-test-stress-0.bin
 * ... fwload-test-stress-63.bin at the same time, waits for all of them, and
 * then "results" lists one line per request:
 *
 *   INDEX SIZE CRC32        (SIZE -1 when the request failed)
 *
 * CRC32 is the zlib/gzip one, so user space can check it with gzip's trailer.
 * Built into the test kernel by test/kernel/build.sh.
 */
#include <linux/crc32.h>
#include <linux/device.h>
#include <linux/firmware.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#define MAX_REQS 256

struct stress_req {
	struct completion done;
	long size;
	u32 crc;
};

static DEFINE_MUTEX(stress_lock);
static struct stress_req *reqs;
static unsigned int nreqs;
static struct miscdevice stress_dev;

static void stress_cb(const struct firmware *fw, void *context)
{
	struct stress_req *r = context;

	if (fw) {
		r->size = fw->size;
		r->crc = crc32_le(~0U, fw->data, fw->size) ^ ~0U;
	} else {
		r->size = -1;
	}
	release_firmware(fw);
	complete(&r->done);
}

static ssize_t trigger_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	char prefix[64], name[96];
	unsigned int n, i, sent = 0;
	int rc = count;

	if (sscanf(buf, "%u %63s", &n, prefix) != 2 || n == 0 || n > MAX_REQS)
		return -EINVAL;
	mutex_lock(&stress_lock);
	kfree(reqs);
	nreqs = 0;
	reqs = kcalloc(n, sizeof(*reqs), GFP_KERNEL);
	if (!reqs) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		init_completion(&reqs[i].done);
		reqs[i].size = -1;
		snprintf(name, sizeof(name), "%s-%u.bin", prefix, i);
		if (request_firmware_nowait(THIS_MODULE, FW_ACTION_UEVENT, name,
					    stress_dev.this_device, GFP_KERNEL,
					    &reqs[i], stress_cb)) {
			rc = -EIO;
			break;
		}
		sent++;
	}
	for (i = 0; i < sent; i++)
		wait_for_completion(&reqs[i].done);
	nreqs = sent;
out:
	mutex_unlock(&stress_lock);
	return rc;
}
static DEVICE_ATTR_WO(trigger);

static ssize_t results_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	ssize_t len = 0;
	unsigned int i;

	mutex_lock(&stress_lock);
	for (i = 0; i < nreqs; i++)
		len += sysfs_emit_at(buf, len, "%u %ld %08x\n", i, reqs[i].size,
				     reqs[i].crc);
	mutex_unlock(&stress_lock);
	return len;
}
static DEVICE_ATTR_RO(results);

static struct attribute *stress_attrs[] = {
	&dev_attr_trigger.attr,
	&dev_attr_results.attr,
	NULL,
};
ATTRIBUTE_GROUPS(stress);

static const struct file_operations stress_fops = {
	.owner = THIS_MODULE,
};

static struct miscdevice stress_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "fwload_stress",
	.fops = &stress_fops,
	.groups = stress_groups,
};

static int __init stress_init(void)
{
	return misc_register(&stress_dev);
}
module_init(stress_init);

MODULE_DESCRIPTION("many concurrent firmware requests, for fwload's tests");
MODULE_LICENSE("GPL");
