// A type from a header that was not included: refused with its name.
int count(size_t n) {
  return (int)n;
}

int main(void) {
  return count(3);
}
