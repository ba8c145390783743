/* Event handlers registered as callbacks in a table. Events 0-2 get a
   handler, event 3 never does, and dispatch() calls the table's entry
   without checking it: reading event 3 calls a null function pointer
   on line 26. */
#include <stdio.h>

#define EVENTS 4

typedef void (*handler_fn)(int *state, int arg);

static handler_fn handlers[EVENTS];

static void on_add(int *state, int arg) { *state += arg; }
static void on_reset(int *state, int arg) { *state = 0; }
static void on_double(int *state, int arg) { *state *= 2; }

static void register_handler(int ev, handler_fn h) {
  if (ev >= 0 && ev < EVENTS)
    handlers[ev] = h;
}

static int state;

static void dispatch(int ev, int arg) {
  if (ev >= 0 && ev < EVENTS)
    handlers[ev](&state, arg);
}

int main(void) {
  register_handler(0, on_add);
  register_handler(1, on_reset);
  register_handler(2, &on_double);
  int ev, arg;
  if (scanf("%d %d", &ev, &arg) != 2)
    return 1;
  if (arg < -100 || arg > 100)
    return 1;
  dispatch(ev, arg);
  printf("%d\n", state);
  return 0;
}
