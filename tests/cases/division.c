// A division by an input that may be zero: the assumption says when.
#include <stdio.h>

int average(int total, int count) {
  return total / count;
}

int main(void) {
  int total, count;
  if (scanf("%d %d", &total, &count) != 2)
    return 1;
  if (count < 0)
    return 1;
  printf("%d\n", average(total, count));
  return 0;
}
