/* <assert.h>, C11 7.2: `assert(e)` is focuscheck's assertion (an error
   when `e` is false); with NDEBUG defined it is nothing, as in C. Not
   guarded: C re-reads it at each #include, for the NDEBUG then in force. */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
void assert(int e);
#endif
#define static_assert _Static_assert
