package com.example.inventory;

import java.util.List;

import com.example.testsupport.DatabaseRolesContract;

class InventoryDatabaseRolesIntegrationTests extends DatabaseRolesContract {

    @Override
    protected List<String> ownTables() {
        return List.of("stock", "reservations");
    }
}
