package com.example.inventory.web;

import com.example.inventory.Stock;

import io.swagger.v3.oas.annotations.media.Schema;

/** A sku's stock as the contract shows it. */
@Schema(name = "Stock")
record StockResponse(long skuId, long available, long reserved, long priceCents) {

    static StockResponse of(Stock stock) {
        return new StockResponse(stock.skuId(), stock.available(), stock.reserved(), stock.priceCents());
    }
}
