"""One model with what the corpus's tasks need: choices to filter on, text to search,
a date (the admin's date widget) and a number a validator can refuse."""

from django.core.validators import MinValueValidator
from django.db import models


class Book(models.Model):
    GENRES = (("novel", "Novel"), ("poetry", "Poetry"), ("history", "History"), ("science", "Science"))

    title = models.CharField(max_length=200)
    author = models.CharField(max_length=200)
    genre = models.CharField(max_length=20, choices=GENRES, default="novel")
    published = models.DateField()
    pages = models.PositiveIntegerField(validators=[MinValueValidator(1)])
    in_stock = models.BooleanField("in stock", default=True)

    def __str__(self) -> str:
        return self.title
