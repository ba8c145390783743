/* copy_name.c -- `strlen` and `strcpy` into a fixed buffer.
 * Bug: the check lets a name of exactly 8 characters through, and
 * `strcpy` then writes its NUL as the ninth byte of `name[8]` (line 22). */
typedef unsigned int size_t;
extern size_t strlen(const char *s);
extern char *strcpy(char *restrict dst, const char *restrict src);
extern int scanf(const char *restrict format, ...);
extern int puts(const char *s);

struct user {
  char name[8];
  int id;
};

int main(void) {
  char input[16];
  struct user u;
  u.id = 1;
  if (scanf("%15s", input) != 1)
    return 1;
  if (strlen(input) <= 8) {
    strcpy(u.name, input);
    puts(u.name);
  } else {
    puts("name too long");
  }
  return 0;
}
