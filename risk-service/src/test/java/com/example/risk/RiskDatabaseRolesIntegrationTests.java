package com.example.risk;

import java.util.List;

import com.example.testsupport.DatabaseRolesContract;

class RiskDatabaseRolesIntegrationTests extends DatabaseRolesContract {

    @Override
    protected List<String> ownTables() {
        return List.of("assessments");
    }
}
