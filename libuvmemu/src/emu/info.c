// SPDX-License-Identifier: MIT
/* info.c - `uvmemu info`: what this machine's kernel and hardware give the
 * emulator, probed the way a run would. */
#include "emu_int.h"

#include <sys/utsname.h>

#include "policy.h"

int uvm_emu_info(FILE *f)
{
	struct uvm_config cfg;
	struct uvm_placement place;
	struct uvm_uffd u = {.fd = -1};
	struct uvm_tracker t;
	struct uvm_map_touch mt;
	struct utsname un;
	char err[UVM_ERRLEN], buf[384];
	int rc = 0;

	uvm_config_defaults(&cfg);
	uname(&un);
	fprintf(f, "kernel        %s %s\n", un.sysname, un.release);
	if (uvm_uffd_open_capture(&u, UVM_CAPTURE_AUTO, err, sizeof(err))) {
		fprintf(f, "capture       unusable: %s\n", err);
		rc = 1;
	} else {
		const struct uvm_backend_ops *be;

		fprintf(f, "capture       auto picks %s: %s\n", uvm_uffd_capture_name(&u), u.why);
		uvm_uffd_features_str(&u, buf, sizeof(buf));
		if (!u.sig)
			fprintf(f, "userfaultfd   via %s; features: %s\n", u.how, buf);
		fprintf(f, "zap           %s\n", u.zap_why);
		be = uvm_backend_choose("auto", &u, -1, buf, sizeof(buf));
		fprintf(f, "backend       auto picks %s: %s\n", be->name, buf);
		uvm_uffd_close(&u);
	}
	uvm_map_touch_probe(&mt);
	uvm_map_touch_describe(&mt, buf, sizeof(buf));
	fprintf(f, "map touch     %s\n", buf);
	uvm_tracker_init(&t, NULL, true);
	fprintf(f, "io_uring      %s\n", t.async ? "available (asynchronous unmaps)" : t.why_sync);
	uvm_tracker_destroy(&t);
	if (uvm_placement_init(&place, &cfg, err, sizeof(err)) == 0) {
		fprintf(f, "numa nodes    %s%s\n", place.nodes,
			place.nnodes == 1 ? " (single node: --device-node/--host-node accept 0)"
					  : "");
	} else {
		fprintf(f, "numa          %s\n", err);
	}
	fprintf(f, "\n");
	uvm_policy_print_help(f);
	return rc;
}
