// Bytes on disk per hop sample, for bench:store: what each table takes after a CHECKPOINT,
// measured as the blocks DuckDB frees when the table is dropped (pragma_database_size), so
// the figures are the file's own, not an estimate from pragma_storage_info. Run at the end
// of the bench: it drops the tables it measures.
const usedBytes = async (store) => {
  await store.run('CHECKPOINT');
  const r = await store.one('SELECT used_blocks, total_blocks, block_size FROM pragma_database_size() WHERE database_name = current_database()');
  return { used: r.used_blocks * r.block_size, file: r.total_blocks * r.block_size };
};

/** Drops `table` and answers the bytes that freed. */
export async function tableBytes(store, table) {
  const before = await usedBytes(store);
  await store.run(`DROP TABLE ${table}`);
  const after = await usedBytes(store);
  return before.used - after.used;
}

/**
 * `plain`: a table of the same samples in today's layout (session INTEGER, time DOUBLE, hop
 * SMALLINT, latency DOUBLE) holding `plainRows` rows; `drop`: tables of the bench that are not
 * part of the store. Answers bytes per stored hop sample: all in (every table of the file), the
 * samples and the rollups apart, the plain table, and their ratio.
 */
export async function diskPerSample(store, { plain, plainRows, drop }) {
  for (const t of drop) await store.run(`DROP TABLE IF EXISTS ${t}`);
  const plainBytes = await tableBytes(store, plain);
  const { n } = await store.one('SELECT count(*)::DOUBLE AS n FROM samples');
  const { rows } = await store.one('SELECT count(*)::DOUBLE AS rows FROM rollups');
  const all = await usedBytes(store);
  const rollupBytes = await tableBytes(store, 'rollups');
  const sampleBytes = await tableBytes(store, 'samples');
  return {
    samples: n,
    rollupRows: rows,
    allIn: all.used / n,
    file: all.file / n,
    samplesOnly: sampleBytes / n,
    rollups: rollupBytes / n,
    rollupRow: rollupBytes / rows,
    plain: plainBytes / plainRows,
  };
}
