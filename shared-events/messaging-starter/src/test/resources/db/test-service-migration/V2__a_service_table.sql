-- Stands for a service's own first migration in SharedMigrationsIntegrationTests.
create table a_service_table (id bigint primary key);
