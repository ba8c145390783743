// An unknown function that returns a pointer: what it points to is not
// modelled yet, so the file is not checked (never a verdict that claims
// more than the model allows).
char *lookup(const char *key);

int main(void) {
  char *v = lookup("home");
  return v[0];
}
