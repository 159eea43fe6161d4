package dev.crawlerrors.store.clickhouse;

import dev.crawlerrors.store.StoreAddress;
import dev.crawlerrors.store.StoreEngine;
import java.util.Optional;

/** Stores on a ClickHouse server or cluster: {@code --db clickhouse://HOST:HTTP_PORT/DATABASE} ({@link ClickHouseLocation}). */
public final class ClickHouseEngine implements StoreEngine {

    @Override
    public Optional<StoreAddress> address(String db, String user, String password) {
        if (!ClickHouseLocation.isLocation(db)) {
            return Optional.empty();
        }
        return Optional.of(new ClickHouseAddress(ClickHouseLocation.parse(db, user, password)));
    }

    @Override
    public String kind() {
        return "a ClickHouse store";
    }

    @Override
    public String naming() {
        return ClickHouseLocation.SCHEME + "HOST:PORT/DATABASE";
    }
}
