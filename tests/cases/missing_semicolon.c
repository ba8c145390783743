// A syntax error: the position and what was expected.
int main(void) {
  int x = 1
  return x;
}
