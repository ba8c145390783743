/* grades.c -- a grade calculator: reads scores with `scanf`, prints a
 * histogram with `printf`.
 * Bug: a score of 100 passes the range check and is counted in
 * `counts[score / 10]`, one past the end of `counts` (line 26). */
extern int printf(const char *restrict format, ...);
extern int scanf(const char *restrict format, ...);
#include <assert.h>

int counts[10];

int main(void) {
  int n, score, total = 0;
  if (scanf("%d", &n) != 1 || n < 1 || n > 5) {
    printf("how many scores? (1-5)\n");
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (scanf("%d", &score) != 1)
      return 1;
    if (score < 0 || score > 100) {
      printf("score %d out of range\n", score);
      i--;
      continue;
    }
    total += score;
    counts[score / 10]++;
  }
  assert(total <= 100 * n);
  for (int g = 0; g < 10; g++)
    printf("%2d-%2d: %d\n", g * 10, g * 10 + 9, counts[g]);
  printf("average: %d\n", total / n);
  return 0;
}
