package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.HitStore;
import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreCheck;
import dev.crawlerrors.store.StoreLimits;
import dev.crawlerrors.store.WritableStore;
import dev.crawlerrors.text.Figures;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A store on ClickHouse, as its URL names it: always there (its database is made by the first
 * import or serve), no file of this machine, and written by any number of processes at once, so
 * an import opens it itself whoever serves it.
 */
final class ClickHouseAddress implements StoreAddress {

    private final ClickHouseLocation location;

    ClickHouseAddress(ClickHouseLocation location) {
        this.location = location;
    }

    @Override
    public String shown() {
        return location.shown();
    }

    @Override
    public HitStore open(StoreLimits limits) {
        return ClickHouseHitStore.open(location, ClickHouseSettings.SERVE.with(limits));
    }

    @Override
    public WritableStore openForImport(StoreLimits limits, Consumer<String> notices) {
        return ClickHouseHitStore.open(location, ClickHouseSettings.IMPORT.with(limits));
    }

    @Override
    public HitStore openAfresh(StoreLimits limits) {
        return ClickHouseHitStore.openAfresh(location, ClickHouseSettings.SERVE.with(limits));
    }

    @Override
    public Optional<StoreCheck> check() {
        return ClickHouseStoreCheck.check(location, ClickHouseSettings.SERVE).map(checked -> new StoreCheck(checked.contents(),
                ClickHouseStoreCheck.SCHEMA_VERSION, Figures.counted(checked.shards(), "shard") + " answering"));
    }

    @Override
    public String whenMissing() {
        return "its database is made by the first import or serve";
    }
}
