/* A calculator whose operations are a table of function pointers indexed
   by the opcode read; the opcode is checked against the table's size and
   every entry is set, so every call is through a valid pointer. */
#include <assert.h>
#include <stdio.h>

typedef int (*op_fn)(int, int);

struct op {
  char symbol;
  op_fn apply;
};

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int max(int a, int b) { return a > b ? a : b; }
static int min(int a, int b) { return a < b ? a : b; }

static const struct op ops[] = {
  {'+', add}, {'-', sub}, {'>', max}, {'<', min},
};

#define NOPS (int)(sizeof ops / sizeof ops[0])

int main(void) {
  int code, a, b;
  if (scanf("%d %d %d", &code, &a, &b) != 3)
    return 1;
  if (code < 0 || code >= NOPS)
    return 1;
  if (a < -1000 || a > 1000 || b < -1000 || b > 1000)
    return 1;
  op_fn f = ops[code].apply;
  assert(f != NULL);
  int r = f(a, b);
  if (ops[code].symbol == '>')
    assert(r >= a && r >= b);
  if (ops[code].symbol == '<')
    assert(r <= a && r <= b);
  printf("%d %c %d = %d\n", a, ops[code].symbol, b, r);
  return 0;
}
