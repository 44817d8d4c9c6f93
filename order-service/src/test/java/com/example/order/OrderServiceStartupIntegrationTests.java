package com.example.order;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.testsupport.AuthorizationMatrix;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.ServiceStartupContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class OrderServiceStartupIntegrationTests extends ServiceStartupContract {

    @Override
    protected List<String> ownTables() {
        return List.of("orders", "order_lines");
    }

    @Override
    protected List<AuthorizationMatrix.Endpoint> operatorEndpoints() {
        return List.of(AuthorizationMatrix.Endpoint.get("/orders?status=CREATED&older_than=PT1M"));
    }
}
