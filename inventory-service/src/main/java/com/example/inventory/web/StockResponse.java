package com.example.inventory.web;

import com.example.inventory.Stock;

/** A sku's stock as the contract shows it. */
record StockResponse(long skuId, int available, int reserved) {

    static StockResponse of(Stock stock) {
        return new StockResponse(stock.skuId(), stock.available(), stock.reserved());
    }
}
