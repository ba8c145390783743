/* clock.c -- `/` and `%` by constants on the way to an error.
 * Bug: tick() moves a wall clock one minute on, but forgets the day: from
 * 23:59 it gives 24:00, so the assertion on line 23 fails exactly for the
 * inputs t between 86340 and 86399 (the last minute of the day). A checker
 * must treat `t / 3600` and `t % 3600 / 60` exactly to find such a t. */
int hours;
int minutes;

void to_clock(int seconds) {
  hours = seconds / 3600;
  minutes = seconds % 3600 / 60;
}

void tick(void) {
  minutes = minutes + 1;
  if (minutes == 60) {
    minutes = 0;
    hours = hours + 1;
  }
}

void check_clock(void) {
  __VERIFIER_assert(hours < 24 && minutes < 60);
}

int main() {
  int t;
  if (t < 0 || t >= 86400) {
    return 0;
  }
  to_clock(t);
  tick();
  check_clock();
  return 0;
}
