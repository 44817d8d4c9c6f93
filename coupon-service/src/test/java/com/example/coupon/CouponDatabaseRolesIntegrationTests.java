package com.example.coupon;

import java.util.List;

import com.example.testsupport.DatabaseRolesContract;

class CouponDatabaseRolesIntegrationTests extends DatabaseRolesContract {

    @Override
    protected List<String> ownTables() {
        return List.of("coupons", "redemptions");
    }
}
