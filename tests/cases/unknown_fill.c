// A function the program declares but does not define fills a buffer:
// every element it may write is any value, so one used as an index may
// be out of bounds.
int fill(int *buf, int n);

int main(void) {
  int buf[4] = {0, 0, 0, 0};
  int table[3] = {10, 20, 30};
  if (fill(buf, 4) < 0)
    return 1;
  return table[buf[0]];
}
