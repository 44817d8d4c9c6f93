package com.example.order;

import java.util.List;

import com.example.testsupport.DatabaseRolesContract;

class OrderDatabaseRolesIntegrationTests extends DatabaseRolesContract {

    @Override
    protected List<String> ownTables() {
        return List.of("orders", "order_lines");
    }
}
