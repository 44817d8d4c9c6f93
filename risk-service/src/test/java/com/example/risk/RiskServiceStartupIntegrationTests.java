package com.example.risk;

import java.util.List;

import org.springframework.boot.test.context.SpringBootTest;

import com.example.testsupport.AuthorizationMatrix;
import com.example.testsupport.FreshInfrastructure;
import com.example.testsupport.ServiceStartupContract;

@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@FreshInfrastructure
class RiskServiceStartupIntegrationTests extends ServiceStartupContract {

    @Override
    protected List<String> ownTables() {
        return List.of("assessments");
    }

    @Override
    protected List<AuthorizationMatrix.Endpoint> operatorEndpoints() {
        return List.of(AuthorizationMatrix.Endpoint.get("/assessments/1"));
    }
}
