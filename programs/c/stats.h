/* Statistics over a window of samples: a header with a function whose
   bug (an off-by-one loop bound) is reported here, in stats.h. */
#ifndef STATS_H
#define STATS_H
#define WINDOW 5

static int window_sum(int *w, int n) {
  int s = 0;
  for (int i = 0; i <= n; i++)
    s += w[i];
  return s;
}
#endif
