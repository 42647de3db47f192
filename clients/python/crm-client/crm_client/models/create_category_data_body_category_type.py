from enum import StrEnum


class CreateCategoryDataBodyCategoryType(StrEnum):
    CLIENT = "client"
    CONTRACT = "contract"
    ESTIMATE = "estimate"
    EXPENSE = "expense"
    INVOICE = "invoice"
    ITEM = "item"
    KNOWLEDGEBASE = "knowledgebase"
    LEAD = "lead"
    PROJECT = "project"
    PROPOSAL = "proposal"
    SUBSCRIPTION = "subscription"
    TICKET = "ticket"

    def __str__(self) -> str:
        return str(self.value)
