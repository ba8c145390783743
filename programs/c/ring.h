/* A fixed-size ring buffer of bytes, shared by ring_ok.c and ring_bug.c. */
#ifndef RING_H
#define RING_H
#include <stdint.h>
#include <stdbool.h>

#ifndef RING_SIZE
#define RING_SIZE 8
#endif
#define NEXT(i) (((i) + 1) % RING_SIZE)

struct ring {
  uint8_t data[RING_SIZE];
  int head;
  int tail;
};

static bool ring_empty(struct ring *r) { return r->head == r->tail; }
static bool ring_full(struct ring *r) { return NEXT(r->head) == r->tail; }
#endif
