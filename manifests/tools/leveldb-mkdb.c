/* Writes a small database (one put, one delete) and leaves it on disk, so that
   leveldbutil dump has a log and a MANIFEST to read. */
#include <leveldb/c.h>
#include <stdio.h>
int main(int argc, char **argv) {
  char *err = NULL;
  leveldb_options_t *o = leveldb_options_create();
  leveldb_options_set_create_if_missing(o, 1);
  leveldb_t *db = leveldb_open(o, argv[1], &err);
  if (err) { puts(err); return 1; }
  leveldb_writeoptions_t *w = leveldb_writeoptions_create();
  leveldb_put(db, w, "k", 1, "v", 1, &err);
  leveldb_delete(db, w, "k", 1, &err);
  leveldb_close(db);
  return 0;
}
