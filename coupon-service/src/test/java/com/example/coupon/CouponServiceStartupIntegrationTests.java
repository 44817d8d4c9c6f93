package com.example.coupon;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.testsupport.AuthorizationMatrix;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.ServiceStartupContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class CouponServiceStartupIntegrationTests extends ServiceStartupContract {

    @Override
    protected List<String> ownTables() {
        return List.of("coupons", "redemptions");
    }

    @Override
    protected List<AuthorizationMatrix.Endpoint> operatorEndpoints() {
        return List.of(AuthorizationMatrix.Endpoint.put("/coupons/MATRIX", "{\"discount_percent\": 10}"),
                AuthorizationMatrix.Endpoint.get("/coupons/MATRIX"));
    }
}
