void reach_error(void);
int twice(int x) {
  if (x <= 0)
    return 0;
  return twice(x - 1) + 2;
}
int main(void) {
  int r = twice(5);
  if (r != 10)
    reach_error();
  return 0;
}
