/* The C library as focuscheck models it: each function below is copied into
   a program for each call of it (`mod.rs`), its tokens placed at the call,
   so that an error inside a model is reported at the user's call. ELEM1 and
   ELEM2 are the element types of the first two pointer arguments (`char`,
   `signed char` or `unsigned char`). A section starts with a `//== name`
   line, or `//== name (also a, b)` for functions that share its body.
   ILP32, glibc's results, the C locale. A stream (`FILE *`) is an object
   the models read, so that a closed or null stream is an invalid access
   (`streams.rs`): `fopen` allocates it, `fclose` frees it. */
typedef unsigned int size_t;
typedef struct __focuscheck_FILE FILE;
//== strlen
size_t strlen(const ELEM1 *s) {
    size_t n = 0;
    while (s[n] != 0)
        n++;
    return n;
}
//== strnlen
size_t strnlen(const ELEM1 *s, size_t max) {
    size_t n = 0;
    while (n < max && s[n] != 0)
        n++;
    return n;
}
//== strcpy
ELEM1 *strcpy(ELEM1 *d, const ELEM2 *s) {
    size_t i = 0;
    while ((d[i] = s[i]) != 0)
        i++;
    return d;
}
//== strncpy
ELEM1 *strncpy(ELEM1 *d, const ELEM2 *s, size_t n) {
    size_t i = 0;
    while (i < n && s[i] != 0) {
        d[i] = s[i];
        i++;
    }
    while (i < n) {
        d[i] = 0;
        i++;
    }
    return d;
}
//== strcat
ELEM1 *strcat(ELEM1 *d, const ELEM2 *s) {
    size_t n = 0;
    while (d[n] != 0)
        n++;
    size_t i = 0;
    while ((d[n + i] = s[i]) != 0)
        i++;
    return d;
}
//== strcmp
int strcmp(const ELEM1 *a, const ELEM2 *b) {
    size_t i = 0;
    while (a[i] != 0 && (unsigned char)a[i] == (unsigned char)b[i])
        i++;
    return (unsigned char)a[i] - (unsigned char)b[i];
}
//== strncmp
int strncmp(const ELEM1 *a, const ELEM2 *b, size_t n) {
    size_t i = 0;
    if (n == 0)
        return 0;
    while (i + 1 < n && a[i] != 0 && (unsigned char)a[i] == (unsigned char)b[i])
        i++;
    return (unsigned char)a[i] - (unsigned char)b[i];
}
//== strchr
ELEM1 *strchr(const ELEM1 *s, int c) {
    size_t i = 0;
    while (s[i] != (ELEM1)c) {
        if (s[i] == 0)
            return (ELEM1 *)0;
        i++;
    }
    return (ELEM1 *)(s + i);
}
//== strrchr
ELEM1 *strrchr(const ELEM1 *s, int c) {
    size_t i = 0;
    ELEM1 *last = (ELEM1 *)0;
    while (1) {
        if (s[i] == (ELEM1)c)
            last = (ELEM1 *)(s + i);
        if (s[i] == 0)
            return last;
        i++;
    }
}
//== strstr
ELEM1 *strstr(const ELEM1 *h, const ELEM2 *n) {
    size_t i = 0;
    while (1) {
        size_t j = 0;
        while (n[j] != 0 && h[i + j] == n[j])
            j++;
        if (n[j] == 0)
            return (ELEM1 *)(h + i);
        if (h[i] == 0)
            return 0;
        i++;
    }
}
//== strspn
size_t strspn(const ELEM1 *s, const ELEM2 *accept) {
    size_t i = 0;
    while (s[i] != 0) {
        size_t j = 0;
        while (accept[j] != 0 && (unsigned char)accept[j] != (unsigned char)s[i])
            j++;
        if (accept[j] == 0)
            return i;
        i++;
    }
    return i;
}
//== strcspn
size_t strcspn(const ELEM1 *s, const ELEM2 *reject) {
    size_t i = 0;
    while (s[i] != 0) {
        size_t j = 0;
        while (reject[j] != 0 && (unsigned char)reject[j] != (unsigned char)s[i])
            j++;
        if (reject[j] != 0)
            return i;
        i++;
    }
    return i;
}
//== strtok
/* glibc's strtok (C11 7.24.5.8): leading delimiters skipped, the token
   ended by a NUL written over the delimiter after it. The position kept
   between calls is one global of the program, `strtok::(saved)` (written
   `__strtok_saved` here), added once and shared by every copy: a call
   with NULL when nothing was saved reads through a null pointer, an
   invalid access at the call, as glibc's crash. */
char *strtok(char *s, const ELEM2 *delim) {
    if (s == 0)
        s = __strtok_saved;
    size_t i = 0;
    while (s[i] != 0) {
        size_t j = 0;
        while (delim[j] != 0 && (unsigned char)delim[j] != (unsigned char)s[i])
            j++;
        if (delim[j] == 0)
            break;
        i++;
    }
    s = s + i;
    if (s[0] == 0) {
        __strtok_saved = s;
        return 0;
    }
    size_t n = 0;
    while (s[n] != 0) {
        size_t j = 0;
        while (delim[j] != 0 && (unsigned char)delim[j] != (unsigned char)s[n])
            j++;
        if (delim[j] != 0)
            break;
        n++;
    }
    if (s[n] == 0) {
        __strtok_saved = s + n;
        return s;
    }
    s[n] = 0;
    __strtok_saved = s + n + 1;
    return s;
}
//== strtok_r
/* POSIX's strtok_r, glibc's: strtok with the position kept in `*sp`. */
char *strtok_r(char *s, const ELEM2 *delim, char **sp) {
    if (s == 0)
        s = *sp;
    size_t i = 0;
    while (s[i] != 0) {
        size_t j = 0;
        while (delim[j] != 0 && (unsigned char)delim[j] != (unsigned char)s[i])
            j++;
        if (delim[j] == 0)
            break;
        i++;
    }
    s = s + i;
    if (s[0] == 0) {
        *sp = s;
        return 0;
    }
    size_t n = 0;
    while (s[n] != 0) {
        size_t j = 0;
        while (delim[j] != 0 && (unsigned char)delim[j] != (unsigned char)s[n])
            j++;
        if (delim[j] != 0)
            break;
        n++;
    }
    if (s[n] == 0) {
        *sp = s + n;
        return s;
    }
    s[n] = 0;
    *sp = s + n + 1;
    return s;
}
//== strncat
ELEM1 *strncat(ELEM1 *d, const ELEM2 *s, size_t n) {
    size_t i = 0;
    while (d[i] != 0)
        i++;
    size_t j = 0;
    while (j < n && s[j] != 0) {
        d[i + j] = (ELEM1)s[j];
        j++;
    }
    d[i + j] = 0;
    return d;
}
//== strdup
/* POSIX (C23 7.26.2.6): a copy in a new object of `strlen(s) + 1` chars;
   it fails only where `malloc` does. */
ELEM1 *strdup(const ELEM1 *s) {
    size_t n = 0;
    while (s[n] != 0)
        n++;
    ELEM1 *d = malloc(n + 1);
    if (d == 0)
        return 0;
    for (size_t i = 0; i <= n; i++)
        d[i] = s[i];
    return d;
}
//== strndup
/* POSIX: at most `n` chars of `s` (fewer at its NUL), then a NUL, in a new
   object of that many chars plus one. */
ELEM1 *strndup(const ELEM1 *s, size_t n) {
    size_t k = 0;
    while (k < n && s[k] != 0)
        k++;
    ELEM1 *d = malloc(k + 1);
    if (d == 0)
        return 0;
    for (size_t i = 0; i < k; i++)
        d[i] = s[i];
    d[k] = 0;
    return d;
}
//== __assert_fail
/* glibc's failed `assert(e)`, as <assert.h> expands it in a preprocessed
   `.i` file: it writes a message and calls `abort` (C11 7.2.1.1). So a run
   ends there, as C has it; SV-COMP's `unreach-call` counts no error there,
   and the shipped <assert.h> is what makes a failed `assert` an error. */
void __assert_fail(const ELEM1 *assertion, const ELEM2 *file, unsigned int line, const char *function) {
    if (assertion == 0 || file == 0 || function == 0 || line == 0) {
    }
    abort();
}
//== memchr
ELEM1 *memchr(const ELEM1 *s, int c, size_t n) {
    size_t i = 0;
    while (i < n) {
        if ((unsigned char)s[i] == (unsigned char)c)
            return (ELEM1 *)(s + i);
        i++;
    }
    return (ELEM1 *)0;
}
//== memcpy
ELEM1 *memcpy(ELEM1 *d, const ELEM2 *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        d[i] = s[i];
        i++;
    }
    return d;
}
//== memset of integers
/* Byte for byte on a little-endian machine, the bytes past `n` in the
   last element kept (no `~`: values from 2^63 up are beyond the model). */
ELEM1 *memset(ELEM1 *d, int c, size_t n) {
    unsigned long long pat = 0;
    size_t k = 0;
    while (k < sizeof(ELEM1)) {
        pat = (pat << 8) | (unsigned char)c;
        k++;
    }
    size_t q = n / sizeof(ELEM1);
    size_t r = n % sizeof(ELEM1);
    size_t i = 0;
    while (i < q) {
        d[i] = (ELEM1)pat;
        i++;
    }
    if (r != 0) {
        unsigned long long mask = 0;
        size_t j = 0;
        while (j < r) {
            mask = (mask << 8) | 255;
            j++;
        }
        unsigned long long old = (UELEM1)d[q];
        d[q] = (ELEM1)(old - (old & mask) + (pat & mask));
    }
    return d;
}
//== memcpy of integers
ELEM1 *memcpy(ELEM1 *d, const ELEM1 *s, size_t n) {
    size_t q = n / sizeof(ELEM1);
    size_t r = n % sizeof(ELEM1);
    size_t i = 0;
    while (i < q) {
        d[i] = s[i];
        i++;
    }
    if (r != 0) {
        unsigned long long mask = 0;
        size_t j = 0;
        while (j < r) {
            mask = (mask << 8) | 255;
            j++;
        }
        unsigned long long old = (UELEM1)d[q];
        unsigned long long from = (UELEM1)s[q];
        d[q] = (ELEM1)(old - (old & mask) + (from & mask));
    }
    return d;
}
//== memmove
ELEM1 *memmove(ELEM1 *d, const ELEM2 *s, size_t n) {
    size_t i = 0;
    if (d <= s) {
        while (i < n) {
            d[i] = s[i];
            i++;
        }
    } else {
        while (i < n) {
            d[n - 1 - i] = s[n - 1 - i];
            i++;
        }
    }
    return d;
}
//== memset
ELEM1 *memset(ELEM1 *d, int c, size_t n) {
    size_t i = 0;
    while (i < n) {
        d[i] = (ELEM1)c;
        i++;
    }
    return d;
}
//== memcmp
int memcmp(const ELEM1 *a, const ELEM2 *b, size_t n) {
    size_t i = 0;
    while (i < n) {
        if ((unsigned char)a[i] != (unsigned char)b[i])
            return (unsigned char)a[i] - (unsigned char)b[i];
        i++;
    }
    return 0;
}
//== qsort
/* ELEM1 is the element type. An insertion sort: C leaves the order of
   elements the comparator finds equal unspecified (glibc's merge sort
   keeps it, its introsort does not), so an element may stop before or
   after each equal one, as the run chooses: every order C allows. */
void qsort(ELEM1 *b, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    assert(size == sizeof(ELEM1));
    size_t i = 1;
    while (i < n) {
        size_t j = i;
        while (j > 0) {
            int c = cmp(&b[j - 1], &b[j]);
            if (c < 0 || (c == 0 && __VERIFIER_nondet_int() == 0))
                break;
            ELEM1 t = b[j - 1];
            b[j - 1] = b[j];
            b[j] = t;
            j--;
        }
        i++;
    }
}
//== bsearch
/* glibc's binary search: the same comparisons in the same order. ELEM1
   is the key's type, ELEM2 the element type. */
ELEM2 *bsearch(const ELEM1 *key, ELEM2 *b, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
    assert(size == sizeof(ELEM2));
    size_t l = 0;
    size_t u = n;
    while (l < u) {
        size_t mid = (l + u) / 2;
        int c = cmp(key, &b[mid]);
        if (c < 0)
            u = mid;
        else if (c > 0)
            l = mid + 1;
        else
            return &b[mid];
    }
    return 0;
}
//== abs
int abs(int x) {
    return x < 0 ? -x : x;
}
//== labs
long labs(long x) {
    return x < 0 ? -x : x;
}
//== atoi
int atoi(const ELEM1 *s) {
    size_t i = 0;
    while (s[i] == ' ' || (s[i] >= 9 && s[i] <= 13))
        i++;
    int neg = 0;
    if (s[i] == '-') {
        neg = 1;
        i++;
    } else if (s[i] == '+') {
        i++;
    }
    long long v = 0;
    while (s[i] >= '0' && s[i] <= '9') {
        if (v <= 2147483648LL)
            v = v * 10 + (s[i] - '0');
        i++;
    }
    if (neg)
        v = -v;
    if (v > 2147483647LL)
        v = 2147483647LL;
    if (v < -2147483648LL)
        v = -2147483648LL;
    return (int)v;
}
//== strtol
long strtol(const ELEM1 *s, ELEM1 **end, int base) {
    size_t i = 0;
    while (s[i] == ' ' || (s[i] >= 9 && s[i] <= 13))
        i++;
    int neg = 0;
    if (s[i] == '-') {
        neg = 1;
        i++;
    } else if (s[i] == '+') {
        i++;
    }
    size_t first = i;
    long long v = 0;
    while (s[i] >= '0' && s[i] <= '9') {
        if (v <= 2147483648LL)
            v = v * 10 + (s[i] - '0');
        i++;
    }
    if (end != 0)
        *end = (ELEM1 *)(s + (i == first ? 0 : i));
    if (neg)
        v = -v;
    if (v > 2147483647LL)
        v = 2147483647LL;
    if (v < -2147483648LL)
        v = -2147483648LL;
    return (long)v;
}
//== rand
int rand(void) {
    int r = __VERIFIER_nondet_int();
    __VERIFIER_assume(r >= 0);
    return r;
}
//== srand
void srand(unsigned int seed) {
}
//== getchar (also fgetc, getc)
int getchar(void) {
    int c = __VERIFIER_nondet_int();
    __VERIFIER_assume(c >= -1 && c <= 255);
    return c;
}
//== putchar (also fputc, putc)
int putchar(int c) {
    return (unsigned char)c;
}
//== fgets
ELEM1 *fgets(ELEM1 *s, int n) {
    if (n <= 0)
        return 0;
    int i = 0;
    while (i < n - 1) {
        int c = __VERIFIER_nondet_int();
        __VERIFIER_assume(c >= -1 && c <= 255);
        if (c == -1) {
            if (i == 0)
                return 0;
            break;
        }
        s[i] = (ELEM1)c;
        i++;
        if (c == '\n')
            break;
    }
    s[i] = 0;
    return s;
}
//== fflush
int fflush(void) {
    /* 0, or EOF when writing fails. */
    return __VERIFIER_nondet_int() == -1 ? -1 : 0;
}
//== stream fopen
/* The stream is the call's heap object (`fopen@5#1`); a failed open is
   null. Both strings are read to their NUL. */
FILE *fopen(const ELEM1 *path, const ELEM2 *mode) {
    size_t i = 0;
    while (path[i] != 0)
        i++;
    size_t j = 0;
    while (mode[j] != 0)
        j++;
    if (__VERIFIER_nondet_int() == 0)
        return 0;
    FILE *f = malloc(sizeof(FILE));
    f->__open = 1;
    return f;
}
//== stream fclose
/* 0 or EOF; the stream is freed (a standard stream, `__open` 2, is left
   as it is). */
int fclose(FILE *stream) {
    int open = stream->__open;
    if (open != 2)
        free(stream);
    return __VERIFIER_nondet_int() == 0 ? 0 : -1;
}
//== stream fgetc (also getc)
int fgetc(FILE *stream) {
    int open = stream->__open;
    int c = __VERIFIER_nondet_int();
    __VERIFIER_assume(c >= -1 && c <= 255);
    return c;
}
//== stream fputc (also putc)
int fputc(int c, FILE *stream) {
    int open = stream->__open;
    if (__VERIFIER_nondet_int() == 0)
        return -1;
    return (unsigned char)c;
}
//== stream fputs
int fputs(const ELEM1 *s, FILE *stream) {
    int open = stream->__open;
    size_t i = 0;
    while (s[i] != 0)
        i++;
    int r = __VERIFIER_nondet_int();
    __VERIFIER_assume(r >= -1);
    return r;
}
//== stream fgets
ELEM1 *fgets(ELEM1 *s, int n, FILE *stream) {
    int open = stream->__open;
    if (n <= 0)
        return 0;
    int i = 0;
    while (i < n - 1) {
        int c = __VERIFIER_nondet_int();
        __VERIFIER_assume(c >= -1 && c <= 255);
        if (c == -1) {
            if (i == 0)
                return 0;
            break;
        }
        s[i] = (ELEM1)c;
        i++;
        if (c == '\n')
            break;
    }
    s[i] = 0;
    return s;
}
//== stream fflush
/* Null flushes every stream. 0, or EOF when writing fails. */
int fflush(FILE *stream) {
    if (stream != 0) {
        int open = stream->__open;
    }
    return __VERIFIER_nondet_int() == -1 ? -1 : 0;
}
//== stream feof (also ferror)
/* Nonzero or 0: what the stream met is not modelled. */
int feof(FILE *stream) {
    int open = stream->__open;
    return __VERIFIER_nondet_int();
}
//== stream clearerr (also rewind)
void clearerr(FILE *stream) {
    int open = stream->__open;
}
//== stream fseek
int fseek(FILE *stream, long offset, int whence) {
    int open = stream->__open;
    return __VERIFIER_nondet_int() == 0 ? 0 : -1;
}
//== stream ftell
long ftell(FILE *stream) {
    int open = stream->__open;
    long r = __VERIFIER_nondet_int();
    __VERIFIER_assume(r >= -1);
    return r;
}
//== stream fread
/* `r` elements of input (r <= n) written into the buffer, byte by byte
   (a last element read in part is not modelled). */
size_t fread(ELEM1 *p, size_t size, size_t n, FILE *stream) {
    int open = stream->__open;
    size_t r = __VERIFIER_nondet_uint();
    __VERIFIER_assume(r <= n);
    size_t bytes = r * size;
    size_t i = 0;
    while (i < bytes) {
        p[i] = (ELEM1)__VERIFIER_nondet_char();
        i++;
    }
    return r;
}
//== stream fwrite
/* Every byte of the `n` elements is read; `r <= n` are written. */
size_t fwrite(const ELEM1 *p, size_t size, size_t n, FILE *stream) {
    int open = stream->__open;
    size_t bytes = n * size;
    size_t i = 0;
    while (i < bytes) {
        ELEM1 b = p[i];
        i++;
    }
    size_t r = __VERIFIER_nondet_uint();
    __VERIFIER_assume(r <= n);
    return r;
}
//== remove
int remove(const ELEM1 *path) {
    size_t i = 0;
    while (path[i] != 0)
        i++;
    return __VERIFIER_nondet_int();
}
//== rename
int rename(const ELEM1 *from, const ELEM2 *to) {
    size_t i = 0;
    while (from[i] != 0)
        i++;
    size_t j = 0;
    while (to[j] != 0)
        j++;
    return __VERIFIER_nondet_int();
}
//== puts (also fputs)
int puts(const ELEM1 *s) {
    size_t i = 0;
    while (s[i] != 0)
        i++;
    int r = __VERIFIER_nondet_int();
    __VERIFIER_assume(r >= -1);
    return r;
}
//== perror
void perror(const ELEM1 *s) {
    /* Writes `s: ` (when `s` is a non-empty string) and the error's
       message to stderr: only reading `s` matters. */
    if (s != 0) {
        size_t i = 0;
        while (s[i] != 0)
            i++;
    }
}
//== isdigit
int isdigit(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return c >= '0' && c <= '9' ? 2048 : 0;
}
//== isalpha
int isalpha(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ? 1024 : 0;
}
//== isspace
int isspace(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return c == ' ' || (c >= 9 && c <= 13) ? 8192 : 0;
}
//== isupper
int isupper(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return c >= 'A' && c <= 'Z' ? 256 : 0;
}
//== islower
int islower(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return c >= 'a' && c <= 'z' ? 512 : 0;
}
//== isalnum
int isalnum(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ? 8 : 0;
}
//== toupper
int toupper(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return c >= 'a' && c <= 'z' ? c - 32 : c;
}
//== tolower
int tolower(int c) {
    if (c < -1 || c > 255) {
        int ctype_table[1];
        ctype_table[c] = 0;
    }
    return c >= 'A' && c <= 'Z' ? c + 32 : c;
}
