package com.example.payment;

import java.util.List;

import com.example.testsupport.DatabaseRolesContract;

class PaymentDatabaseRolesIntegrationTests extends DatabaseRolesContract {

    @Override
    protected List<String> ownTables() {
        return List.of("payments");
    }
}
