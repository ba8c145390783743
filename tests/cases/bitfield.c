// C the tool does not model yet is said in C's words, at its place.
struct flags {
  unsigned ready : 1;
  unsigned error : 1;
};

int main(void) {
  struct flags f = {1, 0};
  return f.error;
}
