// SPDX-License-Identifier: MIT
/*
 * Description: the residency module is the one writer of block states and
 * their counts. Moves update each vablock's resident count, the pool, the
 * REMOTE, mapped and peer-mapped counts, the gmmu bits and the thrashing
 * books exactly, and tell the observers; the checker passes on the books it
 * keeps and fails on each kind of deliberately corrupted count. No threads, no userfaultfd.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "residency.h"
#include "uvmemu_gmmu.h"

#define ARENA (64ull << 20)

struct fixture {
	struct uvm_space s;
	struct uvm_pool pool[4]; /* one per GPU; the single-GPU cases use pool[0] */
	struct uvm_stats st;
	struct uvm_residency r;
	/* What the observer heard. */
	unsigned resident, released, returned, migrated, launches;
	unsigned evicted; /* released copies uvm_res_event_evicted said were evicted */
	unsigned peer_maps;	  /* peer mappings made */
	unsigned peer_maps_on[4]; /* of those, by the GPU that mapped */
	uint8_t last_trips;
	const struct uvm_residency *heard; /* written by uvm_res_observe */
};

static void on_resident(void *p, size_t b)
{
	(void)b;
	((struct fixture *)p)->resident++;
}

static void on_released(void *p, size_t b)
{
	struct fixture *f = p;

	(void)b;
	f->released++;
	f->evicted += uvm_res_event_evicted(f->heard);
}

static void on_returned(void *p, size_t b, uint32_t alloc, uint8_t trips)
{
	struct fixture *f = p;

	(void)b;
	(void)alloc;
	f->returned++;
	f->last_trips = trips;
}

static void on_migrated(void *p, size_t b, enum uvm_side to)
{
	(void)b;
	(void)to;
	((struct fixture *)p)->migrated++;
}

static void on_peer_mapped(void *p, size_t b)
{
	struct fixture *f = p;

	(void)b;
	f->peer_maps++;
	f->peer_maps_on[uvm_res_event_gpu(f->heard)]++;
}

static void on_launch(void *p, uint64_t index)
{
	(void)index;
	((struct fixture *)p)->launches++;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_int_equal(uvm_space_init(&f->s, ARENA), 0);
	for (int g = 0; g < 4; g++)
		uvm_pool_init(&f->pool[g], 0, true);
	uvm_res_init(&f->r, &f->s, f->pool, &f->st);
	uvm_res_observe(&f->r, &(struct uvm_res_observer){.p = f,
							  .resident = on_resident,
							  .released = on_released,
							  .returned = on_returned,
							  .migrated = on_migrated,
							  .launch = on_launch,
							  .peer_mapped = on_peer_mapped,
							  .res = &f->heard});
	assert_ptr_equal(f->heard, &f->r);
	/* 3 MB: one full vablock and one of 16 blocks. */
	uvm_space_add(&f->s, 0, 3u << 20, 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	uvm_space_destroy(&f->s);
	free(f);
	return 0;
}

static void assert_books_hold(struct fixture *f)
{
	char err[256] = "";
	int rc = uvm_res_check(&f->r, err, sizeof(err));

	if (rc)
		fail_msg("residency check: %s", err);
}

static uint64_t gpu_used(struct fixture *f, int g)
{
	struct uvm_pool p;

	uvm_pool_snapshot(&f->pool[g], &p);
	return p.used;
}

static uint64_t pool_used(struct fixture *f)
{
	return gpu_used(f, 0);
}

static void test_moves_keep_every_count(void **state)
{
	struct fixture *f = *state;

	assert_books_hold(f);
	uvm_res_move(&f->r, 0, 4, UVM_DEVICE, UVM_RES_MIGRATE); /* zero-fill */
	uvm_res_move(&f->r, 32, 8, UVM_HOST, UVM_RES_MIGRATE);	/* host fill */
	uvm_res_move(&f->r, 32, 2, UVM_DUPLICATED, UVM_RES_MIGRATE);
	uvm_res_move(&f->r, 34, 3, UVM_REMOTE, UVM_RES_MIGRATE);
	uvm_res_remote_mapped(&f->r, 34, 2, true);
	assert_int_equal(f->s.vablock[0].resident, 4);
	assert_int_equal(f->s.vablock[1].resident, 2);
	assert_int_equal(pool_used(f), 6);
	assert_int_equal(f->r.remote_blocks, 3);
	assert_int_equal(atomic_load(&f->r.remote_mapped), 2);
	assert_true(atomic_load(&f->s.gmmu_state[34]) & UVMEMU_GMMU_REMOTE);
	assert_int_equal(f->resident, 6);
	assert_books_hold(f);

	/* A remote block migrates; its mapped count goes with it. */
	uvm_res_move(&f->r, 34, 1, UVM_DEVICE, UVM_RES_MIGRATE);
	assert_int_equal(atomic_load(&f->r.remote_mapped), 1);
	assert_false(atomic_load(&f->s.gmmu_state[34]) & UVMEMU_GMMU_REMOTE);
	assert_books_hold(f);

	/* Eviction, then the block's return is a thrash with its trip count. */
	uvm_res_prefetched(&f->r, 1);
	uvm_res_move(&f->r, 0, 2, UVM_HOST, UVM_RES_EVICT);
	assert_int_equal(f->st.blocks_prefetch_wasted, 1);
	assert_int_equal(f->released, 2);
	uvm_res_move(&f->r, 0, 1, UVM_DEVICE, UVM_RES_MIGRATE);
	assert_int_equal(f->st.thrashed_blocks, 1);
	assert_int_equal(f->returned, 1);
	assert_int_equal(f->last_trips, 0);
	assert_int_equal(f->s.block[0].trips, 1);
	assert_int_equal(uvm_counter_trips(&f->s, 0), 1);
	/* A plain migration back is no eviction: no thrash on return. */
	uvm_res_move(&f->r, 2, 1, UVM_HOST, UVM_RES_MIGRATE);
	uvm_res_move(&f->r, 2, 1, UVM_DEVICE, UVM_RES_MIGRATE);
	assert_int_equal(f->st.thrashed_blocks, 1);
	assert_books_hold(f);

	uvm_res_migrated(&f->r, 0, UVM_SIDE_DEVICE);
	uvm_res_launch(&f->r, 0);
	assert_int_equal(f->migrated, 1);
	assert_int_equal(f->launches, 1);

	/* Freeing returns every device block to the pool. */
	uvm_res_free(&f->r, 0, 3u << 20);
	assert_int_equal(pool_used(f), 0);
	assert_int_equal(f->r.remote_blocks, 0);
	assert_int_equal(atomic_load(&f->r.remote_mapped), 0);
	assert_books_hold(f);
}

static void expect_check_fails(struct fixture *f, const char *what)
{
	char err[256] = "";

	assert_int_equal(uvm_res_check(&f->r, err, sizeof(err)), -EINVAL);
	if (!strstr(err, what))
		fail_msg("expected a complaint about '%s', got '%s'", what, err);
}

static void test_check_fails_corrupted_counts(void **state)
{
	struct fixture *f = *state;

	uvm_res_move(&f->r, 0, 3, UVM_DEVICE, UVM_RES_MIGRATE);
	uvm_res_move(&f->r, 3, 2, UVM_HOST, UVM_RES_MIGRATE);
	uvm_res_move(&f->r, 3, 2, UVM_REMOTE, UVM_RES_MIGRATE);
	uvm_res_remote_mapped(&f->r, 3, 1, true);
	assert_books_hold(f);

	f->s.vablock[0].resident++;
	expect_check_fails(f, "resident blocks");
	f->s.vablock[0].resident--;

	uvm_pool_use(&f->pool[0], 1);
	expect_check_fails(f, "pool");
	uvm_pool_use(&f->pool[0], -1);

	f->r.remote_blocks--;
	expect_check_fails(f, "REMOTE");
	f->r.remote_blocks++;

	atomic_fetch_add(&f->r.remote_mapped, 1);
	expect_check_fails(f, "mapped");
	atomic_fetch_sub(&f->r.remote_mapped, 1);

	uvm_vbmask_clear(&f->s.on_gpu[0], 1); /* vablock 0, GPU 0: block 1 is DEVICE */
	expect_check_fails(f, "mask of GPU 0's copies");
	uvm_vbmask_set(&f->s.on_gpu[0], 1);

	f->s.block[1].flags |= UVM_BF_DEV_MAPPED; /* a DEVICE block cannot be remote-mapped */
	expect_check_fails(f, "flags");
	f->s.block[1].flags &= (uint8_t)~UVM_BF_DEV_MAPPED;

	atomic_fetch_and(&f->s.gmmu_state[4], (uint8_t)~UVMEMU_GMMU_REMOTE);
	expect_check_fails(f, "gmmu");
	atomic_fetch_or(&f->s.gmmu_state[4], UVMEMU_GMMU_REMOTE);

	f->s.block[50].state = UVM_HOST; /* past the 48-block allocation's end */
	expect_check_fails(f, "past its allocation");
	f->s.block[50].state = UVM_UNALLOCATED;

	assert_books_hold(f);
}

/* Several GPUs: each pool counts its own GPU's copies; a peer migration,
 * copies added and dropped keep every count; the check covers every GPU. */
static void test_several_gpus(void **state)
{
	struct fixture *f = *state;

	uvm_res_set_gpus(&f->r, 4);
	uvm_res_move_gpu(&f->r, 0, 4, UVM_DEVICE, UVM_RES_MIGRATE, 2);
	assert_int_equal(gpu_used(f, 2), 4);
	assert_int_equal(f->resident, 4);
	uvm_res_peer(&f->r, 0, 2, 3, UVM_RES_MIGRATE);
	assert_int_equal(f->evicted, 0);
	assert_int_equal(gpu_used(f, 2), 2);
	assert_int_equal(gpu_used(f, 3), 2);
	assert_int_equal(f->s.block[0].gpu, 3);
	assert_int_equal(f->s.vablock[0].resident, 4); /* still on a device */
	assert_int_equal(f->resident, 6);
	assert_int_equal(f->released, 2);
	assert_books_hold(f);
	/* Evicted to a peer and migrated back: the first release alone is an
	 * eviction. */
	uvm_res_peer(&f->r, 0, 2, 2, UVM_RES_EVICT);
	assert_int_equal(f->evicted, 2);
	uvm_res_peer(&f->r, 0, 2, 3, UVM_RES_MIGRATE);
	assert_int_equal(f->evicted, 2);
	assert_int_equal(gpu_used(f, 3), 2);

	/* Read-mostly: copies on GPUs 1, 0 and 3, then GPU 1's dropped. */
	uvm_res_move(&f->r, 32, 4, UVM_HOST, UVM_RES_MIGRATE);
	uvm_res_move_gpu(&f->r, 32, 4, UVM_DUPLICATED, UVM_RES_MIGRATE, 1);
	uvm_res_dup_add(&f->r, 32, 4, 0);
	uvm_res_dup_add(&f->r, 32, 2, 3);
	assert_int_equal(gpu_used(f, 0), 4);
	assert_int_equal(gpu_used(f, 1), 4);
	assert_int_equal(gpu_used(f, 3), 4);
	assert_int_equal(f->s.vablock[1].resident, 4);
	assert_books_hold(f);
	uvm_res_dup_drop(&f->r, 32, 4, 1, UVM_RES_EVICT);
	assert_int_equal(f->evicted, 6);
	assert_int_equal(gpu_used(f, 1), 0);
	assert_int_equal(f->s.block[32].state, UVM_DUPLICATED);
	/* A write on GPU 3 collapses its two blocks there. */
	uvm_res_move_gpu(&f->r, 32, 2, UVM_DEVICE, UVM_RES_MIGRATE, 3);
	assert_int_equal(gpu_used(f, 0), 2);
	assert_int_equal(gpu_used(f, 3), 4);
	/* The last copy dropped: the block is the host's. */
	uvm_res_dup_drop(&f->r, 34, 2, 0, UVM_RES_EVICT);
	assert_int_equal(f->evicted, 8);
	assert_int_equal(f->s.block[34].state, UVM_HOST);
	assert_int_equal(gpu_used(f, 0), 0);
	assert_int_equal(f->s.vablock[1].resident, 2);
	assert_books_hold(f);

	/* Corruptions the check must name. */
	uvm_pool_use(&f->pool[3], -1);
	expect_check_fails(f, "GPU 3's pool");
	uvm_pool_use(&f->pool[3], 1);
	f->s.block[0].gpu = 2; /* the books say GPU 3 */
	expect_check_fails(f, "pool");
	f->s.block[0].gpu = 7; /* a GPU the run does not have */
	expect_check_fails(f, "DEVICE on GPU 7");
	f->s.block[0].gpu = 3;
	f->s.block[34].dups = 1; /* a HOST block with a copy */
	expect_check_fails(f, "copies on GPUs");
	f->s.block[34].dups = 0;
	assert_books_hold(f);

	uvm_res_free(&f->r, 0, 3u << 20);
	for (int g = 0; g < 4; g++)
		assert_int_equal(gpu_used(f, g), 0);
	assert_books_hold(f);
}

/* Peer mappings (--gpus, remap): a DEVICE block mapped on other GPUs'
 * views too. The count follows each mapping made and gone, sampling marks
 * what it unmapped, a free forgets them; the check fails a corrupted count,
 * a mapping on the holder's own GPU, on a GPU the run lacks or of a block
 * not DEVICE, and advice naming a GPU the run lacks. */
static void test_peer_mappings(void **state)
{
	struct fixture *f = *state;

	uvm_res_set_gpus(&f->r, 3);
	uvm_res_move_gpu(&f->r, 0, 4, UVM_DEVICE, UVM_RES_MIGRATE, 1);
	uvm_res_peer_map(&f->r, 0, 4, 0);
	uvm_res_peer_map(&f->r, 0, 2, 2);
	uvm_res_peer_map(&f->r, 0, 4, 0); /* mapped already: nothing new */
	assert_int_equal(f->r.peer_mapped, 6);
	assert_int_equal(f->peer_maps, 6);
	assert_int_equal(f->peer_maps_on[0], 4);
	assert_int_equal(f->peer_maps_on[2], 2);
	assert_int_equal(f->s.block[0].peers, 1u << 0 | 1u << 2);
	assert_int_equal(gpu_used(f, 0), 0); /* a mapping is not a copy */
	assert_int_equal(gpu_used(f, 1), 4);
	assert_books_hold(f);

	/* Sampling unmaps GPU 2's: marked, until mapped again. */
	uvm_res_peer_unmap(&f->r, 0, 2, 2, true);
	assert_int_equal(f->r.peer_mapped, 4);
	assert_int_equal(f->s.block[1].peers_sampled, 1u << 2);
	assert_books_hold(f);
	uvm_res_peer_map(&f->r, 1, 1, 2);
	assert_int_equal(f->s.block[1].peers_sampled, 0);
	assert_int_equal(f->s.block[0].peers_sampled, 1u << 2);
	assert_books_hold(f);

	/* Corruptions the check must name. */
	f->r.peer_mapped++;
	expect_check_fails(f, "peer mappings counted");
	f->r.peer_mapped--;
	f->s.block[2].peers |= 1u << 1; /* its holder's own GPU */
	expect_check_fails(f, "peer mappings on GPUs");
	f->s.block[2].peers &= (uint8_t) ~(1u << 1);
	f->s.block[2].peers |= 1u << 5; /* a GPU the run does not have */
	expect_check_fails(f, "peer mappings on GPUs");
	f->s.block[2].peers &= (uint8_t) ~(1u << 5);
	f->s.block[0].peers_sampled |= 1u << 0; /* mapped and sampled at once */
	expect_check_fails(f, "peer mappings on GPUs");
	f->s.block[0].peers_sampled &= (uint8_t) ~(1u << 0);
	uvm_res_move(&f->r, 8, 1, UVM_HOST, UVM_RES_MIGRATE);
	f->s.block[8].peers = 1u << 2; /* a HOST block cannot be peer-mapped */
	f->r.peer_mapped++;
	expect_check_fails(f, "in state HOST on GPU");
	f->s.block[8].peers = 0;
	f->r.peer_mapped--;
	f->s.block[9].accessed_by = 1u << 1; /* without the accessed-by flag */
	expect_check_fails(f, "advice");
	f->s.block[9].advice = UVM_ADV_ACCESSED_BY;
	assert_books_hold(f);
	f->s.block[9].advice |= UVM_ADV_PREFER_DEVICE;
	f->s.block[9].prefer_gpu = 3; /* a GPU the run does not have */
	expect_check_fails(f, "advice");
	f->s.block[9].prefer_gpu = 2;
	assert_books_hold(f);

	/* Every peer mapping gone, the block may leave its GPU. */
	for (unsigned g = 0; g < 3; g++)
		uvm_res_peer_unmap(&f->r, 0, 4, g, false);
	assert_int_equal(f->r.peer_mapped, 0);
	uvm_res_peer(&f->r, 0, 2, 2, UVM_RES_MIGRATE);
	uvm_res_move(&f->r, 2, 2, UVM_HOST, UVM_RES_MIGRATE);
	assert_int_equal(f->s.block[0].peers_sampled, 0); /* a new GPU: nothing sampled */
	assert_books_hold(f);

	/* A free forgets the mappings with the views. */
	uvm_res_peer_map(&f->r, 0, 2, 1);
	assert_int_equal(f->r.peer_mapped, 2);
	uvm_res_free(&f->r, 0, 3u << 20);
	assert_int_equal(f->r.peer_mapped, 0);
	assert_books_hold(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_moves_keep_every_count, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_fails_corrupted_counts, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_several_gpus, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_peer_mappings, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
