/* tag_file.c -- `tag NAME`: checks its command line, keeps the name.
 * Bug: the usage check reads `argc`, but the name is copied with `strcpy`
 * into an 8-byte buffer whatever its length: a name of 8 characters or
 * more writes past `name[8]` (line 17). */
typedef unsigned int size_t;
extern char *strcpy(char *restrict dst, const char *restrict src);
extern int puts(const char *s);

int main(int argc, char **argv) {
  char name[8];
  if (argc < 2) {
    puts("usage: tag NAME");
    return 1;
  }
  if (argv[1][0] == '-')
    return 2;
  strcpy(name, argv[1]);
  return name[0] == 'x';
}
